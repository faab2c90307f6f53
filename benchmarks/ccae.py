"""Training steps per second of the CCAE (official configuration, batch 32), measured side by side in one run:

- eager, reference attention: the plain version of the step (softmax attention written out, no compilation);
- eager, fused attention: `F.scaled_dot_product_attention` (the library default);
- bfloat16 encoder: the fused model with its set encoder under bfloat16 autocast (`CCAE(precision='bf16')`);
- compiled: the fused model (float32 and bfloat16 encoder) under `torch.compile` (inductor), compiled once before timing;
- on CUDA also: the whole eager step (forward, backward, optimizer) captured once as a CUDA graph and replayed.

    python benchmarks/ccae.py [--repeats 5] [--steps 20] [--no-compile] [--json FILE]

With `--seeds N` it measures instead how to train several seeds on a CPU: one process training one seed on all
threads (the single-seed run); N processes of one thread each, every one training its own seed; and one process
training S seeds stacked (`capsule_ae.train.seeds`, the step `capsule_ae ccae --seeds` takes: noise draws, vectorised
forward and backward, optimizer), eager for S in `--stacked`, compiled for S in `--stacked-compiled`, and compiled with
the encoder under bfloat16 autocast (`--precision bf16`) for S in `--stacked-bf16`. All are timed
in the same run, alternating `--repeats` times; the table reports seed-steps per second, the ratio to one seed, and
the wall time of S seeds relative to the wall time of one seed alone.

    python benchmarks/ccae.py --seeds 2 [--stacked 1,4,8,16] [--stacked-compiled 8,16] [--stacked-bf16 8,16] [--repeats 3] [--steps 100] [--json FILE]

The variants are timed round-robin (one block of `--steps` steps each, `--repeats` times) on the same stream of
batches, so machine noise hits all alike; the table reports the median seconds per step and the speed-up over the
plain eager step.
"""
import argparse, json, statistics, time
import torch
from capsule_ae.nn.attention import set_fast_attention
from capsule_ae.models.ccae import CCAE, ccae_losses
from capsule_ae.data.constellation import ConstellationStream
from capsule_ae.train.loop import get_device, graph_replayer
from capsule_ae.train.optim import official_rmsprop


def make_step(model, opt, forward):
    def step(batch):
        losses = ccae_losses(forward(batch.corners, batch.presence), batch.presence)
        opt.zero_grad(set_to_none=True)
        losses['loss'].backward()
        opt.step()
    return step


def make_graph_step(model, opt, batches):
    """The whole training step (forward, backward, optimizer) captured once as a CUDA graph by
    `capsule_ae.train.loop.graph_step`, what `fit(cuda_graph=True)` replays; each call copies a batch into the static
    inputs and replays. A CCAE step at batch 32 is hundreds of small kernels, so on a GPU its time is launch overhead."""
    def train_step(b):
        losses = ccae_losses(model(b.corners, b.presence), b.presence)
        losses['loss'].backward(); opt.step()
        return losses
    return graph_replayer(train_step, opt, [type(b)(*(t.clone() for t in b)) for b in batches[:4]])


def _seed_worker(seed, steps, threads, barrier, queue):
    "Train one seed for `steps` timed steps (after 3 warm-up steps) with `threads` threads; report the seconds."
    torch.set_num_threads(threads)
    torch.manual_seed(seed)
    model = CCAE()
    opt = official_rmsprop(model.parameters(), 1e-4, 32)
    step = make_step(model, opt, model)
    stream = ConstellationStream(32, seed=seed)
    batches = [stream.sample() for _ in range(steps + 3)]
    for b in batches[:3]: step(b)
    barrier.wait()                                          # all workers start timing together
    t0 = time.perf_counter()
    for b in batches[3:]: step(b)
    queue.put(time.perf_counter() - t0)


def stacked_seeds_step(S, compile=False, precision='fp32'):
    "One training step of S stacked seeds, as `fit_seeds` takes it; returns step(batches) for a list of S batches."
    from capsule_ae.train.seeds import SeedStack, stacked_step, stacked_optimizer, stack_trees
    models = []
    for s in range(S): torch.manual_seed(s); models.append(set_fast_attention(CCAE(precision=precision), False))
    stack = SeedStack(models)
    opt = stacked_optimizer(official_rmsprop(models[0].parameters(), 1e-4, 32),
                            list(stack.params.values()))
    loss = lambda model, b: ccae_losses(model(b.corners, b.presence), b.presence)
    fn = stacked_step(stack.base, loss)
    if compile: fn = torch.compile(fn)
    generators = [torch.Generator().manual_seed(s) for s in range(S)]
    def step(batches):
        noise = [{'noise': models[0].layer.noise_draws(32, g)} for g in generators]
        grads, _ = fn(stack.params, stack.buffers, stack_trees(batches), stack_trees(noise))
        for k, p in stack.params.items(): p.grad = grads[k]
        opt.step()
    return step


def seeds_benchmark(n, steps, repeats, stacked=(), stacked_compiled=(), stacked_bf16=()):
    """Seed-steps per second: one process on all threads, `n` one-thread processes side by side, and stacked seeds in
    one process."""
    import multiprocessing as mp, os
    ctx = mp.get_context('spawn')
    cores = len(os.sched_getaffinity(0)) if hasattr(os, 'sched_getaffinity') else os.cpu_count()
    def run(n_procs, threads):
        barrier, queue = ctx.Barrier(n_procs), ctx.Queue()
        procs = [ctx.Process(target=_seed_worker, args=(s, steps, threads, barrier, queue)) for s in range(n_procs)]
        for p in procs: p.start()
        times = [queue.get() for _ in procs]
        for p in procs: p.join()
        return n_procs * steps / max(times)                 # seed-steps per second, the slowest worker sets the pace
    layouts = {f'1 process, {cores} threads': (1, cores), f'{n} processes, 1 thread each': (n, 1)}
    torch.set_num_threads(cores)
    stream = ConstellationStream(32, seed=0)
    batches = [stream.sample() for _ in range(steps + 3)]
    in_process = {}
    for S, compile, precision in ([(S, False, 'fp32') for S in stacked] + [(S, True, 'fp32') for S in stacked_compiled]
                                  + [(S, True, 'bf16') for S in stacked_bf16]):
        name = f"1 process, {S} seeds stacked{', compiled' if compile else ''}{', bfloat16 encoder' if precision == 'bf16' else ''}"
        step = stacked_seeds_step(S, compile, precision)
        t0 = time.perf_counter()
        for b in batches[:3]: step([b] * S)                 # warm-up (and compilation)
        print(f"warm-up {name}: {time.perf_counter() - t0:.1f} s", flush=True)
        in_process[name] = (S, step)
    def run_stacked(S, step):
        t0 = time.perf_counter()
        for b in batches[3:]: step([b] * S)                 # the same batch for every seed: the same work as S streams
        return S * steps / (time.perf_counter() - t0)
    seeds_of = {**{k: v[0] for k, v in layouts.items()}, **{k: v[0] for k, v in in_process.items()}}
    rates = {k: [] for k in seeds_of}
    for _ in range(repeats):
        for k, (procs, threads) in layouts.items(): rates[k].append(run(procs, threads))
        for k, (S, step) in in_process.items(): rates[k].append(run_stacked(S, step))
    base = statistics.median(rates[f'1 process, {cores} threads'])
    rows = [{'layout': k, 'seeds': seeds_of[k], 'seed_steps_per_s': statistics.median(r),
             'ratio': statistics.median(r) / base,
             'wall_time_vs_one_seed': seeds_of[k] * base / statistics.median(r)} for k, r in rates.items()]
    print(f"CPU, {cores} cores, torch {torch.__version__}; batch 32; median of {repeats} runs of {steps} steps per seed")
    print("| layout | seeds | seed-steps / s | ratio to one seed | wall time of these seeds / one seed's |\n|---|---:|---:|---:|---:|")
    for r in rows: print(f"| {r['layout']} | {r['seeds']} | {r['seed_steps_per_s']:.1f} | {r['ratio']:.2f} | {r['wall_time_vs_one_seed']:.2f} |")
    return {'cores': cores, 'torch': torch.__version__, 'repeats': repeats, 'steps': steps, 'rows': rows}


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument('--repeats', type=int, default=5)
    p.add_argument('--steps', type=int, default=20)
    p.add_argument('--no-compile', action='store_true')
    p.add_argument('--device', default=None)
    p.add_argument('--json', default=None)
    p.add_argument('--seeds', type=int, default=None, help='compare N one-thread processes with one process (CPU)')
    p.add_argument('--stacked', default='',
                   help='with --seeds: numbers of stacked seeds to time eagerly, e.g. 1,4,8,16')
    p.add_argument('--stacked-compiled', default='',
                   help='with --seeds: numbers of stacked seeds to time compiled, e.g. 8,16')
    p.add_argument('--stacked-bf16', default='', help='with --seeds: numbers of stacked seeds to time compiled with the encoder in bfloat16, e.g. 8,16')
    args = p.parse_args(argv)
    if args.seeds:
        ints = lambda s: [int(x) for x in s.split(',') if x]
        res = seeds_benchmark(args.seeds, args.steps, args.repeats, ints(args.stacked), ints(args.stacked_compiled),
                              ints(args.stacked_bf16))
        if args.json:
            with open(args.json, 'w') as f: json.dump(res, f, indent=2)
        return res
    device = get_device(args.device)
    torch.manual_seed(0)
    variants = {}
    names = ['eager, reference attention', 'eager, fused attention', 'eager, fused attention, bfloat16 encoder']
    if not args.no_compile: names += ['compiled, fused attention', 'compiled, fused attention, bfloat16 encoder']
    for name in names:
        model = CCAE(precision='bf16' if name.endswith('bfloat16 encoder') else 'fp32').to(device)
        model = set_fast_attention(model, name != 'eager, reference attention')
        opt = official_rmsprop(model.parameters(), 1e-4, 32)
        forward = torch.compile(model) if name.startswith('compiled') else model
        variants[name] = make_step(model, opt, forward)
    stream = ConstellationStream(32, seed=0)
    batches = [type(b)(*(t.to(device) for t in b)) for b in (stream.sample() for _ in range(args.steps))]
    if device.type == 'cuda':
        model = set_fast_attention(CCAE().to(device), True)
        opt = official_rmsprop(model.parameters(), 1e-4, 32)
        variants['CUDA graph of the whole step, fused attention'] = make_graph_step(model, opt, batches)
    sync = torch.cuda.synchronize if device.type == 'cuda' else (lambda: None)
    for name, step in variants.items():                     # warm-up (and compilation)
        t0 = time.perf_counter()
        for b in batches[:3]: step(b)
        sync()
        print(f"warm-up {name}: {time.perf_counter() - t0:.1f} s", flush=True)
    from torch.utils.flop_counter import FlopCounterMode
    with FlopCounterMode(display=False) as counter: variants['eager, fused attention'](batches[0])
    work = counter.get_total_flops()                 # matrix products of one step, counted (the same for every variant)
    times = {name: [] for name in variants}
    for _ in range(args.repeats):
        for name, step in variants.items():
            sync(); t0 = time.perf_counter()
            for b in batches: step(b)
            sync(); times[name].append((time.perf_counter() - t0) / len(batches))
    base = statistics.median(times['eager, reference attention'])
    rows = [{'variant': n, 'ms_per_step': 1e3 * statistics.median(t), 'steps_per_s': 1 / statistics.median(t),
             'speedup': base / statistics.median(t), 'gflops_per_s': work / statistics.median(t) / 1e9} for n, t in times.items()]
    print(f"\ndevice {device}, torch {torch.__version__}, {torch.get_num_threads()} threads; batch 32; "
          f"median of {args.repeats} blocks of {args.steps} steps; {work / 1e6:.0f} MFLOP per step (torch.utils.flop_counter)")
    print("| variant | ms / step | steps / s | GFLOP/s | speed-up over plain eager |\n|---|---:|---:|---:|---:|")
    for r in rows: print(f"| {r['variant']} | {r['ms_per_step']:.1f} | {r['steps_per_s']:.1f} | {r['gflops_per_s']:.1f} | {r['speedup']:.2f} |")
    if args.json:
        with open(args.json, 'w') as f:
            json.dump({'device': str(device), 'torch': torch.__version__, 'threads': torch.get_num_threads(),
                       'repeats': args.repeats, 'steps': args.steps, 'gflop_per_step': work / 1e9, 'rows': rows}, f, indent=2)
    return rows


if __name__ == '__main__':
    main()
