"""Continue a CCAE run on a GPU with the whole training step captured as one CUDA graph (experimental).

At batch 32 a CCAE step is hundreds of small kernels, and on a GPU its time is launch overhead: eager 30 ms,
compiled 20 ms, a replayed CUDA graph 2.5 ms on an H200 (results/benchmark_ccae_gpu.json). This script takes the
newest checkpoint of a run written by `capsule_ae ccae`, trains on with the same model, optimizer state and data
stream, evaluates on the first 1,000 held-out constellations every --eval-every steps, and writes a checkpoint in
the same format, so `capsule_ae ccae --steps 300000 --out DIR --resume` continues from it on any machine.

    python tools/ccae_cuda_graph.py --run results/ccae_s0 --out DIR [--steps 300000] [--seconds 280]

Not bitwise the run `fit` would make: the presence noise comes from the CUDA generator inside the graph.
"""
import argparse, json, shutil, time
from pathlib import Path
import torch
from capsule_ae.ccae import CCAE, ccae_losses
from capsule_ae.ccae_training import CCAE_RECIPES
from capsule_ae.ccae_training import evaluate_ccae
from capsule_ae.constellation import ConstellationStream, Constellations, held_out_constellations
from capsule_ae.training import TFRMSprop, MetricsLog, latest_checkpoint, rng_state, save_checkpoint


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--run', type=Path, required=True, help='run directory with a checkpoint to continue')
    ap.add_argument('--out', type=Path, required=True)
    ap.add_argument('--steps', type=int, default=300_000, help='stop at this total step count')
    ap.add_argument('--seconds', type=float, default=280, help='or after this many seconds of training')
    ap.add_argument('--eval-every', type=int, default=10_000)
    args = ap.parse_args()
    dev = torch.device('cuda')
    path, state = latest_checkpoint(args.run)
    if state is None: raise SystemExit(f"no checkpoint in {args.run}")
    cfg = state['config']
    prior = cfg.get('prior', 'soft')                               # runs from before the option: the soft priors
    weights = {**CCAE_RECIPES[cfg.get('recipe', 'official')], **(cfg.get('weights') or {})}
    B = cfg['batch_size']
    model = CCAE(); model.load_state_dict(state['model']); model.to(dev).train()
    opt = TFRMSprop(model.parameters(), lr=cfg['lr'], decay=0.9, momentum=0.9, eps=1e-2 / B ** 2)
    opt.load_state_dict(state['optimizer'])
    stream = ConstellationStream(B, seed=cfg['seed']); stream.load_state_dict(state['data'])
    step, seconds = state['step'], state['seconds']
    print(f"continuing {path} at step {step} ({seconds / 60:.0f} min so far)", flush=True)
    held = held_out_constellations(10_000)
    monitor = Constellations(*(t[:1000] for t in held))
    args.out.mkdir(parents=True, exist_ok=True)
    if (args.run / 'metrics.jsonl').exists(): shutil.copy(args.run / 'metrics.jsonl', args.out / 'metrics.jsonl')
    log = MetricsLog(args.out / 'metrics.jsonl', resume_step=step)

    static = None                                                  # corners, presence, ... of the current batch
    def run():
        losses = ccae_losses(model(static[0], static[1]), static[1], prior=prior, weights=weights)
        losses['loss'].backward(); opt.step()
        return losses
    side = torch.cuda.Stream(); side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):                                  # three real steps outside the graph
        for _ in range(3):
            batch = stream.sample()
            if static is None: static = [t.to(dev) for t in batch]
            else:
                for dst, src in zip(static, batch): dst.copy_(src)
            opt.zero_grad(set_to_none=True); run(); step += 1
    torch.cuda.current_stream().wait_stream(side)
    opt.zero_grad(set_to_none=True)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph): losses = run()

    t0 = time.perf_counter(); last = t0
    while step < args.steps and time.perf_counter() - t0 < args.seconds:
        for dst, src in zip(static, stream.sample()): dst.copy_(src, non_blocking=True)
        graph.replay(); step += 1
        if step % 1000 == 0:
            torch.cuda.synchronize(); now = time.perf_counter(); seconds += now - last; last = now
            log.log(step, 'train', {k: v.item() for k, v in losses.items()} | {'seconds': seconds})
        if step % args.eval_every == 0:
            cuda_rng = torch.cuda.get_rng_state()                  # evaluate_ccae reseeds; keep the training noise going
            m = evaluate_ccae(model, monitor); log.log(step, 'eval', m)
            torch.cuda.set_rng_state(cuda_rng)
            print(f"step {step}: {m} ({(time.perf_counter() - t0) / 60:.1f} min)", flush=True)
            last = time.perf_counter()
    torch.cuda.synchronize(); seconds += time.perf_counter() - last
    metrics = evaluate_ccae(model, monitor); log.log(step, 'eval', metrics)
    save_checkpoint(args.out / f'ckpt_{step:08d}.pt',
                    dict(step=step, seconds=seconds, metrics=metrics, config=cfg, rng=rng_state(),
                         model={k: v.cpu() for k, v in model.state_dict().items()}, optimizer=opt.state_dict(),
                         schedule=None, data=stream.state_dict()))
    final = {**evaluate_ccae(model, held), **{f'{k}_noisy': v for k, v in evaluate_ccae(model, held, noise=True).items()},
             'n_held_out': len(held.corners), 'steps': step, 'seconds': seconds, 'device': str(dev),
             'gpu': torch.cuda.get_device_name(dev), 'continued_from': str(path)}
    (args.out / 'metrics.json').write_text(json.dumps(final, indent=2) + '\n')
    print(json.dumps(final, indent=2))


if __name__ == '__main__':
    main()
