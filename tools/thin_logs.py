"""Thin committed metrics logs in place: each window of --every steps' training records becomes their mean
(`capsule_ae.train.runs.thin_records`); evaluations stay as they are.

    python tools/thin_logs.py results/scae_b128_s0/metrics.jsonl [more logs] [--every 100]
"""
import argparse, json, os
from pathlib import Path
from capsule_ae.train.runs import read_metrics, thin_records

if __name__ == '__main__':
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument('logs', nargs='+', type=Path, help='metrics.jsonl files (or run directories holding one)')
    p.add_argument('--every', type=int, default=100, help='steps per averaged training record (default %(default)s)')
    args = p.parse_args()
    for log in args.logs:
        log = log / 'metrics.jsonl' if log.is_dir() else log
        before = log.stat().st_size
        records = read_metrics(log)
        tmp = log.with_name(log.name + '.tmp')
        tmp.write_text(''.join(json.dumps(r) + '\n' for r in thin_records(records, args.every)))
        os.replace(tmp, log)
        print(f"{log}: {len(records)} records, {before / 1e6:.2f} MB -> {log.stat().st_size / 1e6:.2f} MB")
