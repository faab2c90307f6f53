"""Thin committed metrics logs in place: each window of training records becomes their mean
(`capsule_ae.train.runs.thin_records`); evaluations stay as they are. The window is --every steps, or with --records N
the smallest multiple of the log's logging interval that leaves at most N training records (a long run and a short
one then keep curves of the same resolution); a log already that thin is left alone.

    python tools/thin_logs.py results/scae/b128/seed_0/metrics.jsonl [more logs] [--every 100 | --records 250]
"""
import argparse, json, math, os
from pathlib import Path
from capsule_ae.train.runs import read_metrics, thin_records

def window(records, n):
    "Steps per window that leave at most `n` training records of `records`: a multiple of their logging interval."
    steps = [r['step'] for r in records if r.get('split') == 'train']
    if len(steps) <= n: return None                                  # thin enough already
    interval = min(b - a for a, b in zip(steps, steps[1:]) if b > a) if len(steps) > 1 else 1
    return interval * math.ceil(steps[-1] / n / interval)

if __name__ == '__main__':
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument('logs', nargs='+', type=Path, help='metrics.jsonl files (or run directories holding one)')
    size = p.add_mutually_exclusive_group()
    size.add_argument('--every', type=int, default=100, help='steps per averaged training record (default %(default)s)')
    size.add_argument('--records', type=int, help='at most this many training records per log (a window per log)')
    args = p.parse_args()
    for log in args.logs:
        log = log / 'metrics.jsonl' if log.is_dir() else log
        before = log.stat().st_size
        records = read_metrics(log)
        every = window(records, args.records) if args.records else args.every
        if every is None: print(f"{log}: {len(records)} records, thin already"); continue
        tmp = log.with_name(log.name + '.tmp')
        tmp.write_text(''.join(json.dumps(r) + '\n' for r in thin_records(records, every)))
        os.replace(tmp, log)
        print(f"{log}: {len(records)} records, {before / 1e6:.2f} MB -> {log.stat().st_size / 1e6:.2f} MB "
              f"(windows of {every} steps)")
