"""MultiMNIST training step: the 36 x 36 CapsNet on pairs of overlapping digits in float32, with its convolutions in
bfloat16, and bfloat16 under torch.compile, side by side in one run (round-robin: one step of each in turn,
`--repeats` rounds, the median reported), beside the 28 x 28 MNIST step in float32 for the ratio of their costs.
A step is the one `train_multimnist` takes: forward, both digits' reconstructions, backward and an Adam step.

    python benchmarks/multimnist.py [--batch 128] [--repeats 4] [--no-compile] [--json out.json]
"""
import argparse, json, platform, statistics, time
import torch
from capsule_ae.models.capsnet import CapsNet, capsnet_loss
from capsule_ae.experiments.multimnist import multimnist_loss


def step_fn(model, loss):
    opt = torch.optim.Adam(model.parameters(), 1e-3)
    def step(batch):
        value = loss(model, batch)
        opt.zero_grad(set_to_none=True); value.backward(); opt.step()
    return step


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--batch', type=int, default=128)
    ap.add_argument('--repeats', type=int, default=4, help='rounds; each times one step of every variant in turn')
    ap.add_argument('--device', default='cuda' if torch.cuda.is_available() else 'cpu')
    ap.add_argument('--no-compile', action='store_true', help='skip the compiled variant')
    ap.add_argument('--json', default=None)
    args = ap.parse_args()
    dev, B = torch.device(args.device), args.batch
    torch.manual_seed(0)
    labels = torch.stack([torch.arange(B) % 10, (torch.arange(B) + 1) % 10], 1).to(dev)       # two different digits
    pair = (torch.rand(B, 1, 36, 36, device=dev), labels, torch.rand(B, 2, 1, 36, 36, device=dev))
    single = (torch.rand(B, 1, 28, 28, device=dev), torch.randint(0, 10, (B,), device=dev))
    two = lambda m, b: multimnist_loss(m, b)['loss']
    one = lambda m, b: capsnet_loss(m(*b), *b)['loss']
    variants = {'MNIST 28 x 28, fp32': (CapsNet(), one, single),
                'MultiMNIST fp32': (CapsNet(in_shape=(1, 36, 36)), two, pair),
                'MultiMNIST bf16': (CapsNet(in_shape=(1, 36, 36), precision='bf16'), two, pair)}
    if not args.no_compile:
        variants['MultiMNIST bf16, compiled'] = (torch.compile(CapsNet(in_shape=(1, 36, 36), precision='bf16')), two,
                                                 pair)
    sync = torch.cuda.synchronize if dev.type == 'cuda' else (lambda: None)
    steps, times = {}, {}
    for name, (model, loss, batch) in variants.items():                  # warm-up and compilation, before any timing
        t0 = time.perf_counter(); step = step_fn(model.to(dev), loss)
        for _ in range(2): step(batch)
        sync(); steps[name], times[name] = (step, batch), []
        print(f"  warmed up {name} in {time.perf_counter() - t0:.0f} s", flush=True)
    for _ in range(args.repeats):                                  # round-robin: machine noise hits every variant alike
        for name, (step, batch) in steps.items():
            t0 = time.perf_counter(); step(batch); sync(); times[name].append(time.perf_counter() - t0)
    base = statistics.median(times['MultiMNIST fp32'])
    results = {name: {'ms_per_step': 1000 * statistics.median(t), 'speedup_vs_fp32': base / statistics.median(t)}
               for name, t in times.items()}
    print(f"MultiMNIST training step, batch {B}, {dev} ({torch.get_num_threads()} threads), torch {torch.__version__}")
    for name, r in results.items():
        print(f"  {name:30s} {r['ms_per_step']:8.1f} ms/step  {r['speedup_vs_fp32']:.2f}x the MultiMNIST fp32 step")
    if args.json:
        info = {'batch': B, 'device': str(dev), 'threads': torch.get_num_threads(), 'torch': torch.__version__,
                'processor': platform.processor() or platform.machine(), 'repeats': args.repeats, 'results': results}
        with open(args.json, 'w') as f: json.dump(info, f, indent=2)


if __name__ == '__main__':
    main()
