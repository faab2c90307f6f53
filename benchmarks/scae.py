"""Training steps per second of the image SCAE (official MNIST configuration, batch 128), measured side by side in one run:

- PCAE only: the part capsule autoencoder's step alone (encoder, rendering, image likelihood), to show where time goes;
- affine_grid rendering: the eager float32 SCAE step with the templates' sampling grid built by `F.affine_grid` (a
  batched product of 3-vectors) instead of `render`'s two affine maps of the pixel coordinates;
- eager: the whole SCAE step (PCAE + OCAE + probes, the official objective, TF1 RMSProp or Adam), in float32 and with
  both encoders in bfloat16 (`SCAE(precision='bf16')`);
- compiled: the same models under `torch.compile` (inductor), compiled once before timing (skip with --no-compile);
- on CUDA also: the whole eager step captured once as a CUDA graph and replayed (`capsule_ae.train.loop.graph_replayer`).

    python benchmarks/scae.py [--device cuda] [--batch-size 128] [--optimizer tfrmsprop|adam] [--repeats 5] [--steps 5]
                              [--no-compile] [--json FILE]

The variants are timed round-robin (one block of `--steps` steps each, `--repeats` times) on the same batches of real
MNIST canvases, so machine noise hits all alike; the table reports the median seconds per step and each variant's speed
relative to the eager SCAE step.
"""
import argparse, json, statistics, time
import torch
import capsule_ae.models.pcae as pcae
from capsule_ae.models.pcae import render_affine_grid
from capsule_ae.data.mnist import mnist_datasets, MNISTBatches
from capsule_ae.models.scae import SCAE, scae_losses
from capsule_ae.train.loop import get_device, graph_replayer
from capsule_ae.train.optim import official_rmsprop


def optimizer(params, batch_size, kind='tfrmsprop', capturable=False):
    if capturable:
        return torch.optim.Adam(params, lr=3e-5, capturable=True)   # a graph needs an optimizer with device-side state
    if kind == 'adam': return torch.optim.Adam(params, lr=3e-4)                 # the CPU recipe's
    return official_rmsprop(params, 3e-5, batch_size)


def scae_step(model, opt, forward):
    def step(batch):
        x, y = batch
        losses = scae_losses(model, forward(x), y)
        opt.zero_grad(set_to_none=True); losses['loss'].backward(); opt.step()
    return step


def with_render(step, render):
    "The step with `capsule_ae.models.pcae.render` replaced while it runs."
    def wrapped(batch):
        original, pcae.render = pcae.render, render
        try: step(batch)
        finally: pcae.render = original
    return wrapped


def step_flops(step, batch):
    "Floating-point operations of one step (forward, backward, optimizer) in matrix products and convolutions."
    from torch.utils.flop_counter import FlopCounterMode
    with FlopCounterMode(display=False) as counter: step(batch)
    return counter.get_total_flops()


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
    return graph_replayer(lambda b: train_step(*b), opt, [tuple(t.clone() for t in b) for b in batches[:4]])


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    p.add_argument('--device', default=None); p.add_argument('--batch-size', type=int, default=128)
    p.add_argument('--optimizer', choices=['tfrmsprop', 'adam'], default='tfrmsprop')
    p.add_argument('--repeats', type=int, default=5); p.add_argument('--steps', type=int, default=5)
    p.add_argument('--no-compile', action='store_true'); p.add_argument('--json', default=None)
    args = p.parse_args(argv)
    device = get_device(args.device)
    train, _ = mnist_datasets()
    it = iter(MNISTBatches(train, args.batch_size, canvas=40, seed=0, device=device))
    batches = [next(it) for _ in range(args.steps + 4)]
    sync = torch.cuda.synchronize if device.type == 'cuda' else (lambda: None)

    variants = {}
    opt = lambda params: optimizer(params, args.batch_size, args.optimizer)
    torch.manual_seed(0); m = SCAE().to(device)
    variants['PCAE only'] = pcae_step(m.pcae, opt(m.pcae.parameters()))
    torch.manual_seed(0); m = SCAE().to(device)
    variants['SCAE fp32, eager, affine_grid rendering'] = with_render(scae_step(m, opt(m.parameters()), m),
                                                                      render_affine_grid)
    for precision in ('fp32', 'bf16'):
        torch.manual_seed(0); m = SCAE(precision=precision).to(device)
        variants[f'SCAE {precision}, eager'] = scae_step(m, opt(m.parameters()), m)
    if not args.no_compile:
        for precision in ('fp32', 'bf16'):
            torch.manual_seed(0); m = SCAE(precision=precision).to(device)
            variants[f'SCAE {precision}, compiled'] = scae_step(m, opt(m.parameters()), torch.compile(m))
    if device.type == 'cuda':
        torch.manual_seed(0); m = SCAE().to(device)
        variants['SCAE fp32, CUDA graph'] = graph_variant(m,
                                                          optimizer(m.parameters(), args.batch_size,
                                                                    capturable=True), batches)

    for step in variants.values():                                            # warm-up (and compilation) before timing
        for b in batches[:2]: step(b)
    sync()
    work = {'PCAE only': step_flops(variants['PCAE only'], batches[0])}      # matrix products and convolutions, counted
    work.update({k: step_flops(variants['SCAE fp32, eager'], batches[0]) for k in variants if k != 'PCAE only'})
    times = {name: [] for name in variants}
    for _ in range(args.repeats):
        for name, step in variants.items():
            t0 = time.perf_counter()
            for b in batches[4:]: step(b)
            sync(); times[name].append((time.perf_counter() - t0) / args.steps)
    median = {name: statistics.median(t) for name, t in times.items()}
    base = median['SCAE fp32, eager']
    where = torch.cuda.get_device_name(device) if device.type == 'cuda' else f'CPU, {torch.get_num_threads()} threads'
    print(f"{where}, torch {torch.__version__}; batch {args.batch_size}, {args.optimizer}; median of {args.repeats} blocks of {args.steps} steps")
    print(f"work per step, counted by torch.utils.flop_counter: {work['SCAE fp32, eager'] / 1e9:.2f} GFLOP (PCAE alone {work['PCAE only'] / 1e9:.2f})")
    print('| variant | s / step | FLOP rate | speed relative to the eager SCAE step |\n|---|---:|---:|---:|')
    for name, s in median.items(): print(f'| {name} | {s:.3f} | {work[name] / s / 1e9:.1f} GFLOP/s | {base / s:.2f} |')
    if args.json:
        with open(args.json, 'w') as f:
            json.dump({'device': where, 'torch': torch.__version__, 'batch_size': args.batch_size,
                       'optimizer': args.optimizer, 'repeats': args.repeats,
                       'steps': args.steps, 'seconds_per_step': median, 'speed_vs_eager': {k: base / v for k, v in median.items()},
                       'gflop_per_step': {k: w / 1e9 for k, w in work.items()},
                       'gflops_per_s': {k: work[k] / v / 1e9 for k, v in median.items()}}, f, indent=2)


if __name__ == '__main__':
    main()
