"""How many parts the SCAE's part capsules switch on per image, checkpoint by checkpoint, while a run trains.

A run keeps only its last three checkpoints, so the count has to be taken as the run goes: `--watch` polls the runs and
measures each new checkpoint at a multiple of 1,000 steps (and the final model once the run has one). Each record,
appended to results/scae_part_presence.jsonl, is measured on 500 fixed test canvases (MNISTBatches(test, 500,
canvas=40, seed=3), noise off for the part presences, the presence noise on for the SCAE's likelihoods, seeded):
the mean sum of the part presences per image (`parts_sum`), the parts above 0.5 and above 0.99 per image, the mean
part log-likelihood log p(parts) = sum_m d_m log p(x_m), the image log-likelihood, the sum of the object
capsules' prior presences, and their mean per digit (`class_presence`, [10, K]: which capsules each digit lights
up, so which digits share capsules). Without `--watch`, the newest checkpoint of a stopped run is measured whatever
its step. The untrained model (seed 0) is recorded once as the starting point.

    python tools/scae_part_presence.py results/scae/100k/seed_0 results/scae/100k/seed_2 [--watch]
"""
import argparse, json, time
from pathlib import Path
import torch
from capsule_ae.data.mnist import mnist_datasets, MNISTBatches
from capsule_ae.train.runs import checkpoint_paths
from capsule_ae.models.scae import SCAE
from capsule_ae.experiments.scae import scae_weights

root = Path(__file__).resolve().parents[1]
out = root / 'results' / 'scae_part_presence.jsonl'


def measure(model, x, y):
    "The counts and likelihoods of one model on the canvases x, and its capsules' mean presence per digit (labels y)."
    model.eval()
    with torch.no_grad():
        d = model.pcae(x, noise=False).presence                                # (N, M)
        torch.manual_seed(0)
        o = model(x)
    return dict(parts_sum=d.sum(1).mean().item(), parts_half=(d > 0.5).float().sum(1).mean().item(),
                parts_099=(d > 0.99).float().sum(1).mean().item(), log_prob=o.objects.log_prob.mean().item(),
                rec_ll=o.parts.rec_ll.mean().item(), caps_sum=o.prior_presence.sum(1).mean().item(),
                class_presence=[[round(v, 4) for v in o.prior_presence[y == c].mean(0).tolist()] for c in range(10)])


def newest(run, every=1000):
    "(model, step) of a run's final model, or of its newest checkpoint at a multiple of `every` steps; None if neither."
    if not (run / 'model.pt').exists():
        ck = checkpoint_paths(run)
        if not ck or time.time() - ck[-1].stat().st_mtime < 10: return None   # none yet, or still being written
        if int(ck[-1].stem.split('_')[1]) % every: return None
    return scae_weights(run)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('runs', nargs='+', type=Path)
    ap.add_argument('--watch', action='store_true', help='keep measuring new checkpoints until interrupted')
    args = ap.parse_args()
    torch.set_num_threads(1)
    x, y = next(iter(MNISTBatches(mnist_datasets()[1], 500, shuffle=False, canvas=40, seed=3)))
    done = {(r['run'], r['step']) for r in map(json.loads, out.read_text().splitlines())} if out.exists() else set()
    def record(name, step, model):
        r = dict(run=name, step=step, **measure(model, x, y))
        with out.open('a') as f: f.write(json.dumps(r) + '\n')
        done.add((name, step)); print(r, flush=True)
    while True:
        for run in args.runs:
            found = newest(run, 1000 if args.watch else 1)        # a stopped run: its newest checkpoint, any step
            if found is None: continue
            model, step = found
            if ('untrained', 0) not in done:                             # the untrained SCAE of chapter 17, seed 0
                torch.manual_seed(0); record('untrained', 0, SCAE(presence_attention='soft'))
            name = run.resolve().relative_to(root / 'results').as_posix()   # scae/<run>/seed_<s>, the record's key
            if (name, step) not in done: record(name, step, model)
        if not args.watch: break
        time.sleep(60)


if __name__ == '__main__':
    main()
