"""Forward + backward time of the amortized-clustering model: fused attention (F.scaled_dot_product_attention)
against the plain reference attention, measured side by side in one run.

    python benchmarks/attention.py [--repeats 7] [--iters 5] [--sizes 100 300 500] [--device cpu] [--json FILE]

The two paths run interleaved (fast, reference, fast, reference, ...) on the same model and the same batch, so
machine noise hits both alike; the table reports the median time per step of each and their ratio.
"""
import argparse, json, statistics, time
import torch
from capsule_ae.nn.attention import set_fast_attention
from capsule_ae.experiments.clustering import MoGClusterer, MoGSets, clustering_loss
from capsule_ae.train.loop import get_device


def step_time(model, batch, iters, device):
    "Mean seconds of one forward + backward over `iters` calls."
    if device.type == 'cuda': torch.cuda.synchronize()
    t0 = time.perf_counter()
    for _ in range(iters):
        model.zero_grad(set_to_none=True)
        clustering_loss(model, batch)['loss'].backward()
    if device.type == 'cuda': torch.cuda.synchronize()
    return (time.perf_counter() - t0) / iters


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument('--repeats', type=int, default=7)
    p.add_argument('--iters', type=int, default=5)
    p.add_argument('--sizes', type=int, nargs='+', default=[100, 300, 500])
    p.add_argument('--device', default=None)
    p.add_argument('--json', default=None, help='also write the rows to this file')
    args = p.parse_args(argv)
    device = get_device(args.device)
    torch.manual_seed(0)
    model = MoGClusterer().to(device)
    rows = []
    print(f"device {device}, torch {torch.__version__}, threads {torch.get_num_threads()}, "
          f"{args.repeats} repeats x {args.iters} steps, batch of 10 sets")
    print("| set size N | fused (ms/step) | reference (ms/step) | reference / fused |")
    print("|---:|---:|---:|---:|")
    for N in args.sizes:
        batch = MoGSets(n_range=(N, N), seed=N).sample()
        batch = type(batch)(*(t.to(device) for t in batch))
        times = {True: [], False: []}
        for fast in (True, False): set_fast_attention(model, fast); step_time(model, batch, 1, device)  # warm-up
        for _ in range(args.repeats):
            for fast in (True, False):
                set_fast_attention(model, fast)
                times[fast].append(step_time(model, batch, args.iters, device))
        fast_ms, ref_ms = (1e3 * statistics.median(times[f]) for f in (True, False))
        rows.append({'N': N, 'fused_ms': fast_ms, 'reference_ms': ref_ms, 'ratio': ref_ms / fast_ms})
        print(f"| {N} | {fast_ms:.1f} | {ref_ms:.1f} | {ref_ms / fast_ms:.2f} |", flush=True)
    if args.json:
        with open(args.json, 'w') as f:
            json.dump({'device': str(device), 'torch': torch.__version__, 'threads': torch.get_num_threads(),
                       'repeats': args.repeats, 'iters': args.iters, 'rows': rows}, f, indent=2)
    return rows


if __name__ == '__main__':
    main()
