"""Training steps per second of the image SCAE (official MNIST configuration, batch 128), measured side by side in one run:

- PCAE only: the part capsule autoencoder's step alone (encoder, rendering, image likelihood), to show where time goes;
- eager: the whole SCAE step (PCAE + OCAE + probes, the official objective, TF1 RMSProp);
- compiled: the same model under `torch.compile` (inductor), compiled once before timing (skip with --no-compile);
- on CUDA also: the whole eager step captured once as a CUDA graph and replayed (`capsule_ae.training.graph_step`).

    python benchmarks/scae.py [--device cuda] [--batch-size 128] [--repeats 5] [--steps 5] [--no-compile] [--json FILE]

The variants are timed round-robin (one block of `--steps` steps each, `--repeats` times) on the same batches of real
MNIST canvases, so machine noise hits all alike; the table reports the median seconds per step and each variant's speed
relative to the eager SCAE step.
"""
import argparse, json, statistics, time
import torch
from capsule_ae.mnist import mnist_datasets, MNISTBatches
from capsule_ae.scae import SCAE, scae_losses
from capsule_ae.training import TFRMSprop, get_device, graph_step


def optimizer(params, batch_size, capturable=False):
    if capturable: return torch.optim.Adam(params, lr=3e-5, capturable=True)   # a graph needs an optimizer with device-side state
    return TFRMSprop(params, lr=3e-5, decay=0.9, momentum=0.9, eps=1e-2 / batch_size ** 2)


def scae_step(model, opt, forward):
    def step(batch):
        x, y = batch
        losses = scae_losses(model, forward(x), y)
        opt.zero_grad(set_to_none=True); losses['loss'].backward(); opt.step()
    return step


def pcae_step(model, opt):
    def step(batch):
        loss = -model(batch[0]).rec_ll.mean()
        opt.zero_grad(set_to_none=True); loss.backward(); opt.step()
    return step


def graph_variant(model, opt, batches):
    def train_step(x, y):
        losses = scae_losses(model, model(x), y)
        losses['loss'].backward(); opt.step()
        return losses
    graph, static, _ = graph_step(lambda b: train_step(*b), opt, [tuple(t.clone() for t in b) for b in batches[:4]])
    def step(batch):
        for dst, src in zip(static, batch): dst.copy_(src)
        graph.replay()
    return step


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    p.add_argument('--device', default=None); p.add_argument('--batch-size', type=int, default=128)
    p.add_argument('--repeats', type=int, default=5); p.add_argument('--steps', type=int, default=5)
    p.add_argument('--no-compile', action='store_true'); p.add_argument('--json', default=None)
    args = p.parse_args(argv)
    device = get_device(args.device)
    train, _ = mnist_datasets()
    it = iter(MNISTBatches(train, args.batch_size, canvas=40, seed=0, device=device))
    batches = [next(it) for _ in range(args.steps + 4)]
    sync = torch.cuda.synchronize if device.type == 'cuda' else (lambda: None)

    variants = {}
    torch.manual_seed(0); m = SCAE().to(device)
    variants['PCAE only'] = pcae_step(m.pcae, optimizer(m.pcae.parameters(), args.batch_size))
    torch.manual_seed(0); m = SCAE().to(device)
    variants['SCAE, eager'] = scae_step(m, optimizer(m.parameters(), args.batch_size), m)
    if not args.no_compile:
        torch.manual_seed(0); m = SCAE().to(device)
        variants['SCAE, compiled'] = scae_step(m, optimizer(m.parameters(), args.batch_size), torch.compile(m))
    if device.type == 'cuda':
        torch.manual_seed(0); m = SCAE().to(device)
        variants['SCAE, CUDA graph'] = graph_variant(m, optimizer(m.parameters(), args.batch_size, capturable=True), batches)

    for step in variants.values():                                            # warm-up (and compilation) before timing
        for b in batches[:2]: step(b)
    sync()
    times = {name: [] for name in variants}
    for _ in range(args.repeats):
        for name, step in variants.items():
            t0 = time.perf_counter()
            for b in batches[4:]: step(b)
            sync(); times[name].append((time.perf_counter() - t0) / args.steps)
    median = {name: statistics.median(t) for name, t in times.items()}
    base = median['SCAE, eager']
    where = torch.cuda.get_device_name(device) if device.type == 'cuda' else f'CPU, {torch.get_num_threads()} threads'
    print(f"{where}, torch {torch.__version__}; batch {args.batch_size}; median of {args.repeats} blocks of {args.steps} steps")
    print('| variant | s / step | speed relative to the eager SCAE step |\n|---|---:|---:|')
    for name, s in median.items(): print(f'| {name} | {s:.3f} | {base / s:.2f} |')
    if args.json:
        with open(args.json, 'w') as f:
            json.dump({'device': where, 'torch': torch.__version__, 'batch_size': args.batch_size, 'repeats': args.repeats,
                       'steps': args.steps, 'seconds_per_step': median, 'speed_vs_eager': {k: base / v for k, v in median.items()}}, f, indent=2)


if __name__ == '__main__':
    main()
