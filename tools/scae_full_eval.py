"""LIN-MATCH and LIN-PRED of SCAE runs' newest weights on the full sets: k-means and the classifier fitted on all 60,000
training canvases, scored on all 10,000 test canvases, as a finished run scores its final model (the same canvases,
seeds and presence noise), for runs that have not finished. One record per run and step, appended to
results/scae_full_eval.jsonl (a run and step already there is skipped).

    python tools/scae_full_eval.py results/scae/b128/seed_0 results/scae/b128/seed_1 results/scae/b128/seed_2
"""
import argparse, json, time
from pathlib import Path
import torch
from capsule_ae.data.mnist import mnist_datasets
from capsule_ae.train.runs import run_config
from capsule_ae.experiments.scae import eval_canvases, evaluate_scae, scae_weights

root = Path(__file__).resolve().parents[1]
out = root / 'results' / 'scae_full_eval.jsonl'

if __name__ == '__main__':
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument('runs', nargs='+', type=Path)
    runs = p.parse_args().runs
    done = {(r['run'], r['step']) for r in map(json.loads, out.read_text().splitlines())} if out.exists() else set()
    train_ds, test_ds = mnist_datasets()
    for run in runs:
        model, step = scae_weights(run); seed = run_config(run)['seed']
        name = run.resolve().relative_to(root / 'results').as_posix()    # scae/<run>/seed_<s>, the record's key
        if (name, step) in done: print(f"{name} at step {step:,}: already measured"); continue
        t = time.time(); torch.manual_seed(0)
        m = evaluate_scae(model, *eval_canvases(train_ds, test_ds, seed), seed=seed)
        record = {'run': name, 'step': step, **m}
        with out.open('a') as f: f.write(json.dumps(record) + '\n')
        print(f"{name} at step {step:,} ({time.time() - t:.0f} s): " + ', '.join(
              f"{k} {v:.1%}" for k, v in m.items() if k.startswith('lin_')))
