"""Fill the results section of README.md from the committed results files (so no number is typed by hand).

    python tools/update_readme.py          # rewrite the section
    python tools/update_readme.py --check  # exit 1 if README.md is not what the results files say
"""
import json, sys
from pathlib import Path

root = Path(__file__).resolve().parent.parent
START, END = '<!-- results:start -->', '<!-- results:end -->'


def clustering():
    path = root / 'results/clustering/metrics.json'
    if not path.exists(): return []
    m = json.loads(path.read_text())
    cfg = m['config']
    return [
        '### Amortized clustering (Set Transformer, sec. 5.3)', '',
        f"Command: `capsule_ae clustering --steps {m['steps']} --seed {cfg['seed']} --out results/clustering`; "
        f"results in `results/clustering/` (`metrics.json`, curves in `metrics.jsonl`, figure `clusters.png`), "
        f"shown in `nbs/04_clustering.ipynb`.", '',
        '| model | held-out LL / point | paper (Table 3) |', '|---|---:|---:|',
        f"| oracle (true parameters, same held-out sets) | {m['oracle_ll_per_point']:.4f} | -1.4726 |",
        f"| ISAB({cfg['num_inds']}) + PMA, {m['steps']} steps, {m['seconds'] / 60:.0f} min on {m['device']} "
        f"| {m['ll_per_point']:.4f} | -1.4963 (ISAB(32)); -1.5009 (ISAB(16)) |", '',
        'The held-out collection is 100 fixed batches of 10 sets (seed `HELD_OUT_SEED`); the oracle differs from the '
        "paper's because the sets differ.", '',
        '![held-out sets coloured by predicted cluster](results/clustering/clusters.png)', '']


def benchmark():
    path = root / 'results/benchmark_attention.json'
    if not path.exists(): return []
    b = json.loads(path.read_text())
    lines = ['### Attention: fused versus reference', '',
             f"Command: `python benchmarks/attention.py --json results/benchmark_attention.json` "
             f"({b['device']}, torch {b['torch']}, {b['threads']} threads; median of {b['repeats']} interleaved repeats). "
             'Forward + backward of the clustering model on a batch of 10 sets:', '',
             '| set size N | fused (ms/step) | reference (ms/step) | reference / fused |', '|---:|---:|---:|---:|']
    lines += [f"| {r['N']} | {r['fused_ms']:.1f} | {r['reference_ms']:.1f} | {r['ratio']:.2f} |" for r in b['rows']]
    return lines + ['']


def section():
    return '\n'.join([START, *clustering(), *benchmark(), END])


def main():
    readme = (root / 'README.md').read_text()
    head, rest = readme.split(START, 1)
    _, tail = rest.split(END, 1)
    new = head + section() + tail
    if '--check' in sys.argv:
        if new != readme:
            print('README.md results section is out of date: run python tools/update_readme.py'); sys.exit(1)
        print('README.md results agree with the results files')
    else:
        (root / 'README.md').write_text(new)


if __name__ == '__main__':
    main()
