"""Everything a GPU machine should do for the project, in one resumable script that fits commands of a few minutes.

The campaign is a list of stages, done in order; each call does as much as `--budget` seconds allow and records what
is done in `<state>/campaign.json`, so that the next call (on the same or a fresh machine, given the state folder
back) carries on where it stopped:

1. `tests`: chapter 80 on the GPU, which runs the CUDA-only tests and the CUDA-graph equivalence test of `fit`;
2. `bench_*`: the CapsNet, SCAE, CCAE and MultiMNIST benchmarks on the device (`benchmarks/*.py --device cuda`), JSON in the state;
3. `run_*`: long trainings through the CLI, each continued from its newest checkpoint in the state folder, in chunks:
   a chunk stops when the budget ends (the run keeps its last checkpoint) and the next call resumes it. The last of
   them train the four cells of CapsNet's Table 1 (routing iterations, with or
   without the decoder) over three seeds at the official budget.

    python benchmarks/gpu_campaign.py [--state runs/gpu_campaign] [--budget 520] [--only STAGE ...] [--list]
    python benchmarks/gpu_campaign.py --dry-run --state /tmp/campaign    # the same stages on the CPU, tiny budgets

`--dry-run` runs every stage on the CPU with budgets of a few steps, to show that the commands, the chunking and the
resumption work before any GPU time is spent on them.
"""
import argparse, json, os, signal, subprocess, sys, time
from pathlib import Path
from capsule_ae.experiments.capsnet import ROUTING_CELLS    # the four cells of CapsNet's Table 1

root = Path(__file__).resolve().parents[1]
SCAE_CPU_RECIPE = ['--batch-size', '32', '--optimizer', 'adam', '--lr', '3e-4', '--presence-attention', 'soft',
                   '--weight', 'posterior_within=10', '--weight', 'posterior_between=10', '--weight', 'prior_within=1',
                   '--weight', 'prior_between=1', '--eval-every', '1000', '--eval-train', '5000', '--eval-test', '5000',
                   '--checkpoint-every', '500']


def stages(state, dry):
    """name -> dict(what, cmd, [out]) for a campaign writing under `state`; with `dry`, the CPU dry run's
    small versions. A stage with `out` is a training run, resumed from its checkpoints there."""
    s = lambda *p: str(Path(state, *p))
    py = sys.executable
    if dry:
        bench = {'capsnet': ['--device', 'cpu', '--batch', '4', '--repeats', '1', '--no-compile'],
                 'scae': ['--device', 'cpu', '--batch-size', '4', '--steps', '1', '--repeats', '1', '--no-compile'],
                 'ccae': ['--device', 'cpu', '--steps', '2', '--repeats', '1', '--no-compile'],
                 'multimnist': ['--device', 'cpu', '--batch', '4', '--repeats', '1', '--no-compile']}
        tiny_scae = ['--eval-train', '100', '--eval-test', '100', '--final-train', '100', '--final-test', '100']
        runs = {'run_ccae_long': ['ccae', '--seeds', '0', '--steps', '6', '--batch-size', '32', '--lr-drop-at', '0',
                                  '--eval-every', '3', '--checkpoint-every', '2', '--device', 'cpu'],
                'run_scae_official': ['scae', '--steps', '4', '--batch-size', '8', '--eval-every', '4',
                                      '--checkpoint-every', '2',
                                      *tiny_scae, '--device', 'cpu'],
                'run_capsnet': ['capsnet', '--steps', '4', '--batch-size', '8', '--test-size', '100', '--eval-every',
                                '2',
                                '--checkpoint-every', '2', '--device', 'cpu'],
                'run_scae_cpu_recipe': ['scae', '--steps', '4', *SCAE_CPU_RECIPE, '--batch-size', '8', *tiny_scae,
                                        '--device', 'cpu'],                # (the last --batch-size counts)
                'run_multimnist': ['multimnist', '--steps', '4', '--batch-size', '8', '--test-size', '100',
                                   '--final-test', '100', '--eval-every', '2', '--checkpoint-every', '2',
                                   '--device', 'cpu']}
        tests = ['nbdev_test', '--path', 'nbs/01_routing.ipynb']          # the same invocation, a short chapter
    else:
        bench = {'capsnet': ['--device', 'cuda', '--repeats', '20'], 'scae': ['--device', 'cuda'],
                 'ccae': ['--device', 'cuda'], 'multimnist': ['--device', 'cuda', '--repeats', '20']}
        runs = {'run_ccae_long': ['ccae', '--seeds', '0-2', '--compile', '--steps', '300000', '--batch-size', '32', '--lr-drop-at', '0', '--eval-every', '1500'],
                'run_scae_official': ['scae', '--checkpoint-every', '1000'],
                'run_capsnet': ['capsnet', '--epochs', '50', '--checkpoint-every', '1000'],
                'run_scae_cpu_recipe': ['scae', '--steps', '150000', *SCAE_CPU_RECIPE, '--precision',
                                        'fp32'],  # as it ran
                'run_multimnist': ['multimnist', '--epochs', '50', '--checkpoint-every', '1000']}
        tests = ['nbdev_test', '--path', 'nbs/80_training.ipynb']
    out = {'tests': dict(what='CUDA-only tests and the CUDA-graph equivalence test (chapter 80)', cmd=tests)}
    for model, opts in bench.items():
        out[f'bench_{model}'] = dict(what=f'benchmarks/{model}.py on the device', cmd=[
            py, f'benchmarks/{model}.py', *opts, '--json', s(f'benchmark_{model}_{"dry" if dry else "gpu"}.json')])
    what = {'run_ccae_long': "the CCAE's balanced recipe, seeds 0-2, to the official 300,000 steps",
            'run_scae_official': "the image SCAE's official recipe (300,000 steps at batch 128), seed 0",
            'run_capsnet': "CapsNet toward the ports' schedules: 50 epochs, seed 0",
            'run_scae_cpu_recipe': "the SCAE's CPU recipe, seed 0, to 150,000 steps",
            'run_multimnist': "CapsNet on MultiMNIST: 50 epochs of 60,000 fresh pairs, seed 0"}
    for name, args in runs.items():
        d = s(name[4:])
        out[name] = dict(what=what[name], cmd=['capsule_ae', *args, '--out', d], out=d)
    for cell, (iterations, decoder) in ROUTING_CELLS.items():     # the paper's Table 1: 3 seeds at its budget
        for seed in (0,) if dry else (0, 1, 2):
            d = s('routing_table', cell, f'seed_{seed}')
            budget = ['--steps', '2', '--batch-size', '8', '--test-size', '50', '--eval-every', '2',
                      '--checkpoint-every', '1', '--device', 'cpu'] if dry else ['--steps', '300000', '--compile',
                                                                                 '--checkpoint-every', '5000']
            out[f'run_table_{cell}_s{seed}'] = dict(
                what=f"CapsNet, Table 1: {iterations} routing iteration{'s' * (iterations > 1)}, "
                     f"{'with' if decoder else 'without'} the decoder, seed {seed}, the official 300,000 steps",
                cmd=['capsule_ae', 'capsnet', '--seed', str(seed), '--iterations', str(iterations),
                     *([] if decoder else ['--recon-weight', '0']), *budget, '--out', d], out=d)
    return out


def has_checkpoint(run_dir):
    "True when a single run (ckpt_*.pt) or every seed of a stacked run (seed_*/ckpt_*.pt) has a checkpoint."
    run_dir = Path(run_dir)
    seeds = sorted(run_dir.glob('seed_*'))
    dirs = seeds if seeds else [run_dir]
    return run_dir.exists() and all(any(d.glob('ckpt_*.pt')) for d in dirs)


def run_for(cmd, seconds, log):
    "Run `cmd` for at most `seconds`; returns its exit code, or None when it was stopped for time (its group killed)."
    with open(log, 'a') as f:
        f.write(f"\n$ {' '.join(cmd)}\n"); f.flush()
        proc = subprocess.Popen(cmd, cwd=root, stdout=f, stderr=subprocess.STDOUT, start_new_session=True)
        try: return proc.wait(timeout=max(seconds, 1))
        except subprocess.TimeoutExpired:
            for sig, wait in ((signal.SIGTERM, 15), (signal.SIGKILL, 15)):
                try: os.killpg(proc.pid, sig)
                except ProcessLookupError: break
                try: proc.wait(timeout=wait); break
                except subprocess.TimeoutExpired: pass
            return None


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    p.add_argument('--state', default='runs/gpu_campaign', help='where results, checkpoints and campaign.json live')
    p.add_argument('--budget', type=float, default=520,
                   help='seconds this call may take (default %(default)s: a 9-minute command)')
    p.add_argument('--only', nargs='*', default=None, help='these stages only, in the campaign order')
    p.add_argument('--dry-run', action='store_true', help='every stage on the CPU with budgets of a few steps')
    p.add_argument('--list', action='store_true', help='print the stages and what is done, and stop')
    p.add_argument('--expect-done', action='store_true', help='with --list: exit 1 unless every stage is done')
    args = p.parse_args(argv)
    t0 = time.monotonic()
    state = Path(args.state) if Path(args.state).is_absolute() else root / args.state
    state.mkdir(parents=True, exist_ok=True)
    book_path = state / 'campaign.json'
    book = json.loads(book_path.read_text()) if book_path.exists() else {}
    all_stages = stages(state, args.dry_run)
    unknown = set(args.only or ()) - set(all_stages)
    if unknown: p.error(f"unknown stages {sorted(unknown)}; the stages are {list(all_stages)}")
    if not args.dry_run:
        import torch
        if not torch.cuda.is_available(): p.error("no CUDA device here: run on a GPU machine, or --dry-run on the CPU")
    if args.list:
        for name, st in all_stages.items():
            print(f"{name:22s} {book.get(name, {}).get('status', 'to do'):9s} {st['what']}")
        return int(args.expect_done and any(book.get(n, {}).get('status') != 'done' for n in all_stages))
    log = state / 'campaign.log'
    for name, st in all_stages.items():
        if args.only is not None and name not in args.only: continue
        entry = book.setdefault(name, {'status': 'to do', 'seconds': 0., 'calls': 0})
        if entry['status'] == 'done': continue
        left = args.budget - (time.monotonic() - t0)
        if left < 30: print(f"budget spent; next call continues with {name}"); break
        cmd = list(st['cmd'])
        if 'out' in st and has_checkpoint(st['out']): cmd.append('--resume')
        start = time.monotonic()
        rc = run_for(cmd, left, log)
        entry['seconds'] += time.monotonic() - start; entry['calls'] += 1; entry['command'] = ' '.join(cmd)
        entry['status'] = 'done' if rc == 0 else 'stopped' if rc is None else f'failed (exit {rc})'
        book_path.write_text(json.dumps(book, indent=1) + '\n')
        print(f"{name}: {entry['status']} after {entry['seconds']:.0f} s over {entry['calls']} call(s)", flush=True)
        if rc is None: break                                   # out of time: the next call resumes this stage
    book_path.write_text(json.dumps(book, indent=1) + '\n')
    failed = [n for n, e in book.items() if e['status'].startswith('failed')]
    if failed: print(f"failed stages: {failed}; see {log}")
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
