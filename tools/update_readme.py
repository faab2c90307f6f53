"""Fill the generated parts of README.md from the committed results files (so no number is typed by hand): the main
job's sentence, the headline table with the commands under it (its runs declared in results/registry.json, read by
`capsule_ae.report.results`), the trained models that ship, the line on speed (from the CapsNet benchmark) and the
size of a depth-1 clone (results/clone_size.json, from tools/tree_budget.py --clone --write).

    python tools/update_readme.py          # rewrite those parts
    python tools/update_readme.py --check  # exit 1 if README.md is not what the results files say
"""
import json, sys
from pathlib import Path
from capsule_ae.cli import command_line  # a run's config -> the command that trains it
from capsule_ae.pretrained import shipped_runs   # the seeds of a headline whose trained models ship
from capsule_ae.report.results import (headline_rows, front_table, headline_commands, main_job, fill_between,
                                       read_registry, registry_headlines)

root = Path(__file__).resolve().parent.parent
HEADLINES = ['ccae', 'ccae-long', 'scae-mnist', 'capsnet-mnist', 'capsnet-mnist-cpu', 'capsnet-multimnist',
             'clustering-isab16']   # the table's rows, by name


def headlines():
    "The headline table, one row per model, and the command of each under it."
    rows = headline_rows(registry_headlines(root / 'results', HEADLINES), root / 'results', command_line)
    return ['', front_table(rows), '', 'The commands (each seed its own run; every option that is not the default):', '',
            headline_commands(rows), '']


def shipped():
    "The trained models that ship, by name, with the seeds that ship and what each is measured by."
    lines = ['| name | model | seeds | measure |', '|---|---|---|---|']
    for h in registry_headlines(root / 'results'):
        seeds = shipped_runs(h._asdict())
        if seeds: lines.append(f"| `{h.name}` | {h.label or h.model} | {', '.join(seeds)} | {h.what} |")
    return lines


def performance():
    "One sentence on speed: the fastest CapsNet training step against the plain port, timed side by side."
    b = json.loads((root / 'results/benchmark_capsnet.json').read_text())
    name, best = max(b['results'].items(), key=lambda kv: kv[1]['speedup_vs_naive'])
    return (f"the fastest CapsNet training step here ({name}) is {best['speedup_vs_naive']:.2f}x a plain port "
            f"(repeat + matmul, routing in a loop), timed side by side on {b['threads']} CPU cores "
            "(`benchmarks/capsnet.py`)")


def clone():
    "What a depth-1 clone takes on disk, as tools/tree_budget.py --clone measured it, and what it leaves out."
    c = json.loads((root / 'results/clone_size.json').read_text())
    return (f"; the clone takes {c['clone_mb']:.0f} MB on disk, `.git` included (`{c['command']}`), and leaves out the "
            "history, which also holds the weights and checkpoints of older runs")


def main():
    readme = (root / 'README.md').read_text()
    new = fill_between(readme, '<!-- results:start -->', '<!-- results:end -->', '\n'.join(headlines()))
    new = fill_between(new, '<!-- performance:start -->', '<!-- performance:end -->', performance())
    runs = next(h for h in read_registry(root / 'results')['headlines'] if h['name'] == 'ccae')['runs']   # the main job
    seeds = sorted(runs, key=int)
    new = fill_between(new, '<!-- main:start -->', '<!-- main:end -->', '\n' + main_job(
        root / 'results', command_line, runs[seeds[0]], [runs[s] for s in seeds[1:]]) + '\n')
    new = fill_between(new, '<!-- shipped:start -->', '<!-- shipped:end -->', '\n' + '\n'.join(shipped()) + '\n')
    new = fill_between(new, '<!-- clone:start -->', '<!-- clone:end -->', clone())
    if '--check' in sys.argv:
        if new != readme:
            print('README.md results section is out of date: run python tools/update_readme.py'); sys.exit(1)
        print('README.md results agree with the results files')
    else:
        (root / 'README.md').write_text(new)


if __name__ == '__main__':
    main()
