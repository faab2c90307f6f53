"""How often a CCAE recipe loses a capsule: each candidate trains 16 seeds together (`capsule_ae ccae --seeds`) for a
short budget, and every seed is scored on the held-out constellations (noise off) at each evaluation.

A capsule is dead when it wins fewer than 0.05 points per held-out example. The summary, one row per candidate
(its command, steps, seeds, how many seeds have a dead capsule at each evaluation, and the mean +- sd of the final
segmentation accuracy, ARI, split and merge rates and fewest points won by a capsule), goes to results/ccae_death.json;
each seed's metrics.json and metrics.jsonl stay in results/ccae/death_<candidate>/seed_<s>/ (weights and
checkpoints are not kept).

    python tools/ccae_death_rate.py [--only NAME ...] [--seeds 0-15] [--steps 1000] [--compile]
"""
import argparse, json, shutil, subprocess, sys
from pathlib import Path
import numpy as np

root = Path(__file__).resolve().parents[1]
out_root = root / 'results' / 'ccae'            # each candidate's seeds in death_<candidate>/seed_<s>/
DEAD = 0.05            # points won per held-out example below which a capsule counts as dead

CANDIDATES = {         # name -> (what it tests, extra options of `capsule_ae ccae`)
    'official': ("the official recipe as it ran (official empty-scene pooling)", ['--recipe', 'official']),
    'balanced': ("posterior between-example entropy at weight 10 (the default recipe)", ['--recipe', 'balanced']),
    'official_bf16': ("the official recipe, encoder in bfloat16", ['--recipe', 'official', '--precision', 'bf16']),
    'balanced_bf16': ("the default recipe, encoder in bfloat16", ['--recipe', 'balanced', '--precision', 'bf16']),
    'between_3': ("the between-example entropy at weight 3 (bfloat16)",
                  ['--weight', 'posterior_between=3', '--precision', 'bf16']),
    'between_1': ("the between-example entropy at weight 1 (bfloat16)",
                  ['--weight', 'posterior_between=1', '--precision', 'bf16']),
    'within_between_10': ("both posterior entropies at 10, as the official image model (bfloat16)",
                          ['--weight', 'posterior_within=10', '--precision', 'bf16']),
    'within_3_between_10': ("within-example entropy 3, between-example 10 (bfloat16)",
                            ['--weight', 'posterior_within=3', '--precision', 'bf16']),
    'balanced_lr3e-4': ("the default recipe with the learning rate tripled (bfloat16)",
                        ['--lr', '3e-4', '--precision', 'bf16']),
    'balanced_batch128': ("the default recipe at its own batch of 128, the main job's first steps (bfloat16)",
                          ['--batch-size', '128', '--precision', 'bf16']),
    'within_1_batch128': ("batch 128 with the posterior within-example entropy at weight 1, against splitting (bfloat16)",
                          ['--batch-size', '128', '--weight', 'posterior_within=1', '--precision', 'bf16']),
    'within_3_batch128': ("batch 128 with the posterior within-example entropy at weight 3, against splitting (bfloat16)",
                          ['--batch-size', '128', '--weight', 'posterior_within=3', '--precision', 'bf16']),
    'balanced_batch256': ("the default recipe at batch 256, run for half the steps of batch 128 (equal scenes; bfloat16)",
                          ['--batch-size', '256', '--precision', 'bf16']),
    'official_batch128': ("the official recipe at batch 128 (bfloat16)",
                          ['--recipe', 'official', '--batch-size', '128', '--precision', 'bf16']),
}


def wins(m, K=3): return [m[f'wins_{k}'] for k in range(K)]


def summarise(name, seeds, command):
    rows, evals = [], {}
    for s in seeds:
        d = out_root / f'death_{name}' / f'seed_{s}'
        m = json.loads((d / 'metrics.json').read_text())
        rows.append(m)
        for line in (d / 'metrics.jsonl').read_text().splitlines():
            r = json.loads(line)
            if r['split'] == 'eval': evals.setdefault(r['step'], []).append(min(wins(r)) < DEAD)
    final_dead = [min(wins(m)) < DEAD for m in rows]
    stat = lambda k: (float(np.mean([m[k] for m in rows])), float(np.std([m[k] for m in rows], ddof=1)))
    return {'name': name, 'what': CANDIDATES[name][0], 'command': command, 'steps': rows[0]['steps'],
            'seeds': list(seeds),
            'dead_at_eval': {str(step): int(sum(d)) for step, d in sorted(evals.items())},
            'seeds_with_dead_capsule': int(sum(final_dead)), 'dead_capsules': [int(sum(w < DEAD for w in wins(m))) for m in rows],
            'fewest_wins': [float(min(wins(m))) for m in rows],
            **{k: stat(k) for k in ('segm_acc', 'ari', 'split_rate', 'merge_rate', 'log_prob')},
            'seconds': rows[0]['seconds'], 'n_held_out': rows[0]['n_held_out']}


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument('--only', nargs='*', default=None,
                   help='candidates to run (default: every one not yet in the summary)')
    p.add_argument('--seeds', default='0-15')
    p.add_argument('--steps', type=int, default=1000)
    p.add_argument('--held-out', type=int, default=2000)
    p.add_argument('--compile', action='store_true')
    args = p.parse_args(argv)
    summary_path = root / 'results' / 'ccae_death.json'
    summary = json.loads(summary_path.read_text()) if summary_path.exists() else {}
    lo, _, hi = args.seeds.partition('-')
    seeds = list(range(int(lo), int(hi) + 1)) if hi else [int(lo)]
    for name in args.only or [n for n in CANDIDATES if n not in summary]:
        options = CANDIDATES[name][1]
        command = (['capsule_ae', 'ccae', '--seeds', args.seeds, '--steps', str(args.steps), '--eval-every',
                    str(args.steps // 4),
                    '--held-out', str(args.held_out), '--checkpoint-every', str(args.steps)]
                   + ([] if '--batch-size' in options else ['--batch-size', '32']) + ['--lr-drop-at', '0'] + options)
        out = out_root / f'death_{name}'
        if out.exists(): shutil.rmtree(out)
        print(' '.join(command), flush=True)
        run = command + ['--out', str(out), '--no-progress'] + (['--compile'] if args.compile else [])
        subprocess.run([sys.executable, '-c', 'import sys; from capsule_ae.cli import main; main(sys.argv[1:])'] + run[1:],
                       check=True, cwd=root)
        for d in out.glob('seed_*'):                          # keep the metrics, not the weights
            for f in [*d.glob('ckpt_*.pt'), d / 'model.pt', *d.glob('*.png')]: f.unlink(missing_ok=True)
        summary[name] = summarise(name, seeds, ' '.join(command + ['--out', f'results/ccae/death_{name}']))
        summary_path.write_text(json.dumps(summary, indent=1) + '\n')
        r = summary[name]
        print(f"{name}: {r['seeds_with_dead_capsule']}/{len(seeds)} seeds with a dead capsule at step {r['steps']} "
              f"(by evaluation: {r['dead_at_eval']}); segm. acc. {r['segm_acc'][0]:.3f} +- {r['segm_acc'][1]:.3f}", flush=True)


if __name__ == '__main__':
    main()
