"""Ship the trained models that results/registry.json marks: for each seed of each, the run's final weights in the
layout of capsule_ae.pretrained (model.safetensors, config.json, a model card README.md) in its run directory,
stored in float16 where the full-set metric, recomputed with the float16 weights, is the recorded one in its reported
digits, else in float32. The recomputed metrics are appended to results/shipped_precision.jsonl (a seed already there
is not measured again); the run's pickled model.pt is read once, here, and is then no longer needed.

    python tools/ship_models.py                  # every shipped name
    python tools/ship_models.py scae-mnist       # one
"""
import argparse, json, time
from pathlib import Path
import torch
from capsule_ae import __version__
from capsule_ae.cli import command_line
from capsule_ae.pretrained import read_registry, results_root, save_pretrained, shipped_runs
from capsule_ae.report.results import training_config
from capsule_ae.train.runs import checkpoint_paths, load_checkpoint, run_config

HALF = 'float16'


def legacy_model(experiment, run):
    "The model of a run directory from its pickled model.pt (read with weights_only) and its config."
    config = json.loads((run / 'metrics.json').read_text())['config']
    if experiment == 'ccae':
        from capsule_ae.experiments.ccae import ccae_for
        model = ccae_for(config)
    elif experiment == 'scae':
        from capsule_ae.experiments.scae import scae_for
        model = scae_for(config)
    elif experiment == 'clustering':
        from capsule_ae.experiments.clustering import MoGClusterer
        model = MoGClusterer(num_inds=config['num_inds'], dim_hidden=config['dim_hidden'],
                             num_heads=config['num_heads'])
    else: raise ValueError(f"no loader for the experiment {experiment!r}")
    model.load_state_dict(load_checkpoint(run / 'model.pt'))
    return model.eval()


def full_metric(experiment, model, config):
    "The run's headline metrics on the full evaluation set its final evaluation used (seeded where noise is drawn)."
    torch.manual_seed(0)
    if experiment == 'ccae':
        from capsule_ae.experiments.ccae import evaluate_ccae
        from capsule_ae.data.constellation import held_out_constellations
        return evaluate_ccae(model, held_out_constellations(config['n_held_out']))
    if experiment == 'scae':
        from capsule_ae.data.mnist import mnist_datasets
        from capsule_ae.experiments.scae import eval_canvases, evaluate_scae
        return evaluate_scae(model, *eval_canvases(*mnist_datasets(), config['seed']), seed=config['seed'])
    if experiment == 'capsnet':
        from capsule_ae.data.mnist import MNISTBatches, mnist_datasets
        from capsule_ae.experiments.capsnet import evaluate_capsnet
        return evaluate_capsnet(model, MNISTBatches(mnist_datasets()[1], 500, shuffle=False, max_shift=0))
    from capsule_ae.experiments.clustering import evaluate_clustering, held_out_sets
    return evaluate_clustering(model, held_out_sets(config['n_held_out'], n_range=tuple(config['n_range']),
                                                    batch_size=config['batch_size']))


def rounded(model, dtype):
    "A copy of `model` whose floating weights are rounded to `dtype` (what loading them stored in `dtype` gives)."
    import copy
    copy_ = copy.deepcopy(model)
    with torch.no_grad():
        for t in copy_.state_dict().values():
            if t.is_floating_point(): t.copy_(t.to(getattr(torch, dtype)).float())
    return copy_


def commands(experiment, run, root):
    "The commands that trained `run`, the run it branched from first."
    metrics = json.loads((run / 'metrics.json').read_text()) if (run / 'metrics.json').exists() else None
    config = training_config(metrics) if metrics else run_config(run)
    chosen = 'select_drops' in config or 'select_from' in config         # a selection's command trains its branches
    source = None if chosen else config.get('branch_from')
    before = commands(experiment, root.parent / source, root) if source else []
    line = f"`{command_line(experiment, config)} --out {run.relative_to(root.parent)}`"
    if metrics is None:                                     # a run stopped where a branch took its newest checkpoint
        line += f" (stopped at step {int(checkpoint_paths(run)[-1].stem.split('_')[1]):,})"
    return before + [line]


def card(h, seed, run, root, metrics, record, dtype):
    "The model card of one shipped seed."
    value = lambda x: f"{x * h['scale']:{h['fmt']}}"
    steps = commands(h['experiment'], run, root)
    lines = [f"# {h['name']}, seed {seed}", '', f"{h['model']}, trained with capsule_ae {__version__}.", '',
             '```python', 'from capsule_ae.pretrained import load_pretrained',
             f"model = load_pretrained({h['name']!r}, seed={seed})",
             f"# the same model: load_pretrained('{run.relative_to(root.parent)}'), from the repository's root",
             '```', '', "- Trained by (from the repository's root):"]
    lines += [f"  {c}" + (', then' if i < len(steps) - 1 else '') for i, c in enumerate(steps)]
    lines += [f"- Seed {seed}, {metrics['steps']:,} training steps on {metrics['device']}.",
              f"- {h['what']}: {value(metrics[h['metric']])} (the run's final evaluation); recomputed with its weights "
              f"rounded to float16: {value(record[HALF][h['metric']])}.",
              f"- Weights stored in {dtype} (the comparison: `results/shipped_precision.jsonl`)"
              + ("; loading casts them to float32." if dtype != 'float32' else '.'),
              f"- The chapter that trains and shows it: `nbs/{h['chapter']}.ipynb`.", '']
    return '\n'.join(lines)


def weights(h, run):
    "The run's model: from its model.pt while it has one, else the shipped copy (stored losslessly either way)."
    if (run / 'model.pt').exists(): return legacy_model(h['experiment'], run)
    from capsule_ae.pretrained import load_pretrained
    return load_pretrained(run)


if __name__ == '__main__':
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument('names', nargs='*', help='shipped names (default: all)')
    names = p.parse_args().names
    root = results_root()
    log = root / 'shipped_precision.jsonl'
    done = {(r['name'], r['seed']): r for r in map(json.loads, log.read_text().splitlines())} if log.exists() else {}
    for h in read_registry(root)['headlines']:
        if names and h['name'] not in names: continue
        for seed, rel in shipped_runs(h).items():
            run = root / rel
            metrics = json.loads((run / 'metrics.json').read_text())
            model = weights(h, run)
            record = done.get((h['name'], int(seed)))
            if record is None:
                t = time.time()
                record = {'name': h['name'], 'seed': int(seed), 'run': rel, 'metric': h['metric'],
                          'recorded': metrics[h['metric']],
                          HALF: full_metric(h['experiment'], rounded(model, HALF), metrics['config'])}
                with log.open('a') as f: f.write(json.dumps(record) + '\n')
                print(f"{h['name']} seed {seed}: measured in {time.time() - t:.0f} s", flush=True)
            show = lambda x: f"{x * h['scale']:{h['fmt']}}"
            dtype = HALF if show(record['recorded']) == show(record[HALF][h['metric']]) else 'float32'
            text = card(h, seed, run, root, metrics, record, dtype)
            save_pretrained(model, run, HALF if dtype == HALF else None, text)
            print(f"{h['name']} seed {seed}: {h['metric']} recorded {show(record['recorded'])}, with float16 weights "
                  f"{show(record[HALF][h['metric']])}: stored in {dtype}", flush=True)
