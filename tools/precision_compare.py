"""What bfloat16 does to learning: the same short training in float32 and in bfloat16, for two seeds, metrics side by side.

- CapsNet: one epoch of the paper's recipe (`capsule_ae capsnet --epochs 1 --compile`), test accuracy on all 10,000 digits;
- SCAE: the first 3,000 steps of the CPU recipe, the image and part log-likelihoods and the probes on the final model.

Each run writes results/<model>/precision_<precision>/seed_<s>/ (metrics only; weights, checkpoints and figures are not
kept); the summary, one row per model and precision (the command, each seed's metrics and their mean +- sd), goes to
results/precision.json. Runs already finished are read back, not trained again.

    python tools/precision_compare.py [--only capsnet|scae ...] [--seeds 0,1]
"""
import argparse, json, shutil, subprocess, sys
from pathlib import Path
import numpy as np

root = Path(__file__).resolve().parents[1]
SCAE_CPU = ['--steps', '3000', '--batch-size', '32', '--optimizer', 'adam', '--lr', '3e-4', '--presence-attention',
            'soft',
            '--weight', 'posterior_within=10', '--weight', 'posterior_between=10', '--weight', 'prior_within=1',
            '--weight', 'prior_between=1', '--eval-every', '500', '--eval-train', '2000', '--eval-test', '2000',
            '--final-train', '10000', '--final-test', '10000', '--checkpoint-every', '1000']
MODELS = {   # name -> (options of `capsule_ae <name>`, the final metrics compared)
    'capsnet': (['--epochs', '1', '--compile'], ['test_accuracy', 'test_margin', 'test_reconstruction']),
    'scae': (SCAE_CPU, ['rec_ll', 'log_prob', 'lin_match_prior', 'lin_pred_prior', 'lin_pred_posterior']),
}
PRECISIONS = ('fp32', 'bf16')


def command(model, precision, seed):
    return ['capsule_ae', model, *MODELS[model][0], '--precision', precision, '--seed', str(seed),
            '--out', f'results/{model}/precision_{precision}/seed_{seed}']


def run(model, precision, seed):
    out = root / command(model, precision, seed)[-1]
    if not (out / 'metrics.json').exists():
        if out.exists(): shutil.rmtree(out)
        print(' '.join(command(model, precision, seed)), flush=True)
        subprocess.run(command(model, precision, seed), cwd=root, check=True)
        for f in [*out.glob('ckpt_*.pt'), out / 'model.pt', *out.glob('*.png')]: f.unlink(missing_ok=True)
    return json.loads((out / 'metrics.json').read_text())


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    p.add_argument('--only', nargs='*', choices=list(MODELS), default=list(MODELS))
    p.add_argument('--seeds', default='0,1')
    args = p.parse_args(argv)
    seeds = [int(s) for s in args.seeds.split(',')]
    summary_path = root / 'results' / 'precision.json'
    summary = json.loads(summary_path.read_text()) if summary_path.exists() else {}
    for seed in seeds:                       # seed by seed, so that a partial queue already compares both precisions
        for model in args.only:
            for precision in PRECISIONS: run(model, precision, seed)
    for model in args.only:
        keys = MODELS[model][1]
        for precision in PRECISIONS:
            per_seed = {s: run(model, precision, s) for s in seeds}
            summary[f'{model}_{precision}'] = {
                'command': ' '.join(command(model, precision, '<seed>')), 'seeds': seeds,
                'per_seed': {s: {k: m[k] for k in keys + ['steps', 'seconds']} for s, m in per_seed.items()},
                **{k: {'mean': float(np.mean([m[k] for m in per_seed.values()])),
                       'sd': float(np.std([m[k] for m in per_seed.values()], ddof=1)) if len(seeds) > 1 else 0.}
                   for k in keys}}
    summary_path.write_text(json.dumps(summary, indent=1) + '\n')
    for name, row in summary.items():
        print(name, ', '.join(f"{k} {row[k]['mean']:.4f} +- {row[k]['sd']:.4f}" for k in row if isinstance(row[k], dict) and 'mean' in row[k]))


if __name__ == '__main__':
    sys.exit(main())
