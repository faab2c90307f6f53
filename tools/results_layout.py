"""One layout for every run under results/: `results/<model>/<run>/seed_<s>/`, where <model> is the experiment
(capsnet, multimnist, ccae, scae, clustering, pcae), <run> names the recipe or the probe, and seed_<s> holds one
seed's files. What a run writes inside its own folder stays there: a selection's `candidates/seed_<s>/` and a
selected seed's branches `drop_<T>/`. Files that belong to no single run (benchmarks, the registry, the published
numbers) sit at the top of results/.

    python tools/results_layout.py            # the runs that are not in the layout; exit 1 when there are some
    python tools/results_layout.py --plan     # where each of them goes
    python tools/results_layout.py --apply    # move them (git mv) and rewrite every literal path to them

--apply rewrites `results/<old>` wherever it is written in full (notebooks, tools, benchmarks, the package, the
README, the registry and every run's JSON and model card), then lists the old names still written some other way
(a name joined to `results`, a glob, an f-string): those are for a person to change.
"""
import argparse, json, re, subprocess, sys
from pathlib import Path

root = Path(__file__).resolve().parent.parent
MODELS = ('capsnet', 'multimnist', 'ccae', 'scae', 'clustering', 'pcae')
RUN_FILES = ('metrics.json', 'metrics.jsonl', 'run.json')      # a folder holding one of these is a run
LAYOUT = re.compile(rf"({'|'.join(MODELS)})/[A-Za-z0-9.+_-]+/seed_\d+")
INSIDE = re.compile(r"/(candidates/seed_\d+|drop_\d+)$")         # what a run writes inside its own folder
NAMES = {'capsnet': 'capsnet/cpu_e6_paper_decay', 'clustering': 'clustering/isab32', 'pcae_demo': 'pcae/demo',
         'ccae_s0': 'ccae/official/seed_0', 'ccae_s1': 'ccae/official/seed_1', 'ccae_s2': 'ccae/official/seed_2'}
TEXT = ('.ipynb', '.py', '.md', '.json', '.txt', '.ini', '.yml', '.toml')


def tracked(under='results'):
    return subprocess.run(['git', 'ls-files', under], cwd=root, capture_output=True, text=True, check=True).stdout.split()


def run_dirs():
    "Every run folder under results/, relative to it, without the folders a run writes inside its own."
    dirs = {str(Path(f).parent.relative_to('results')) for f in tracked() if Path(f).name in RUN_FILES}
    return sorted(d for d in dirs if not INSIDE.search('/' + d))


def seed_of(d):
    "The seed a run's config records."
    for name in ('metrics.json', 'run.json'):
        p = root / 'results' / d / name
        if p.exists():
            c = json.loads(p.read_text()); c = c.get('config', c)
            if c.get('seed') is not None: return int(c['seed'])
    return 0


def target(d):
    "Where the run folder `d` (relative to results/) goes."
    if LAYOUT.fullmatch(d): return d
    if d in NAMES: return NAMES[d] if NAMES[d].rsplit('/', 1)[-1].startswith('seed_') else f'{NAMES[d]}/seed_{seed_of(d)}'
    top, *rest = d.split('/')
    if top == 'precision':                                       # results/precision/<model>_<precision>_s<seed>
        model, precision, s = re.fullmatch(r'(\w+?)_(bf16|fp32)_s(\d+)', rest[0]).groups()
        return f'{model}/precision_{precision}/seed_{s}'
    model = next(m for m in MODELS if top == m or top.startswith(m + '_'))
    name = top[len(model) + 1:]
    if rest and re.fullmatch(r'seed_\d+', rest[-1]):              # a stacked run, or a branch of one: <run>[/<branch>]/seed_s
        return f"{model}/{'_'.join(p for p in [name, *rest[:-1]] if p)}/{rest[-1]}"
    m = re.fullmatch(r'(.+?)_s(\d+)', name)
    return f'{model}/{m[1]}/seed_{m[2]}' if m else f'{model}/{name}/seed_{seed_of(d)}'


def plan():
    "{old: new} for every run folder not in the layout."
    moves = {d: target(d) for d in run_dirs()}
    moves = {a: b for a, b in moves.items() if a != b}
    new = list(moves.values()) + [d for d in run_dirs() if d not in moves]
    clash = sorted({n for n in new if new.count(n) > 1})
    if clash: sys.exit(f"two runs would share a folder: {clash}")
    return moves


def owner(path, dirs):
    "The run folder a tracked file under results/ belongs to (the deepest run folder above it), or None."
    rel = str(Path(path).relative_to('results'))
    best = None
    for d in dirs:
        if rel.startswith(d + '/') and (best is None or len(d) > len(best)): best = d
    return best


def new_path(p, moves, dirs):
    """Where the path `p` (relative to results/) is after the moves: a run, a file in it, or a folder that holds
    several runs when they all keep their place below it; None when it has no one place (a glob's stem)."""
    owner = max((d for d in dirs if p == d or p.startswith(d + '/')), key=len, default=None)
    if owner is not None and (p == owner or not any(r.startswith(p + '/') for r in dirs)):
        return moves.get(owner, owner) + p[len(owner):]
    heads = set()
    for r in (r for r in dirs if r.startswith(p + '/')):
        n, tail = moves.get(r, r), r[len(p):]
        heads.add(n[:-len(tail)] if n.endswith(tail) else None)
    return heads.pop() if len(heads) == 1 and None not in heads else None


def rewrite(moves):
    """Rewrite every path under `results/` written in full in the tracked text files, and in the JSON files at the
    top of results/ (the registry, the precision and evaluation records) a string that is a run's name relative to
    results/ (`"ccae_main"`); returns the files changed."""
    dirs = run_dirs()
    def sub(m):
        n = new_path(m[1], moves, dirs)
        return m[0] if n is None else 'results/' + n
    full = re.compile(r'results/([A-Za-z0-9_.+/-]*[A-Za-z0-9_+-])')
    named = [d for d in sorted(moves, key=len, reverse=True) if d not in MODELS]   # "capsnet" also names a model
    bare = re.compile(r'"(' + '|'.join(map(re.escape, named)) + r')"')
    changed = []
    for f in subprocess.run(['git', 'ls-files'], cwd=root, capture_output=True, text=True).stdout.split():
        p = root / f
        if p.suffix not in TEXT + ('.jsonl',) or not p.is_file(): continue
        text = p.read_text()
        new = full.sub(sub, text)
        if Path(f).parent == Path('results') and p.suffix in ('.json', '.jsonl'):
            new = bare.sub(lambda m: f'"{moves[m[1]]}"', new)
        if new != text: p.write_text(new); changed.append(f)
    return changed


def apply(moves):
    dirs = run_dirs()
    changed = rewrite(moves)                                     # while the runs are where the text says
    for f in tracked():
        d = owner(f, dirs)
        if d in moves:
            dst = root / 'results' / moves[d] / Path(f).relative_to(Path('results') / d)
            dst.parent.mkdir(parents=True, exist_ok=True)
            subprocess.run(['git', 'mv', f, str(dst.relative_to(root))], cwd=root, check=True)
    print(f"moved {len(moves)} runs; rewrote paths in {len(changed)} files")
    tops = {d.split('/')[0] for d in moves} - set(MODELS) - {'precision'}
    stems = {re.sub(r'_s\d+$', '_s', t) for t in tops}                # written as f'..._s{seed}'
    names = sorted(tops | stems | {'precision/'}, key=len, reverse=True)
    words = re.compile(r"(?<![A-Za-z0-9_/])(" + '|'.join(map(re.escape, names)) + r")(?![A-Za-z0-9_-])")
    for f in subprocess.run(['git', 'ls-files', 'nbs', 'tools', 'benchmarks', 'capsule_ae', 'README.md'],
                            cwd=root, capture_output=True, text=True).stdout.split():
        if Path(f).suffix not in TEXT: continue
        for n, line in enumerate((root / f).read_text().splitlines(), 1):
            if words.search(line): print(f"  still written another way: {f}:{n}: {line.strip()[:140]}")


if __name__ == '__main__':
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument('--plan', action='store_true', help='print where each run outside the layout goes')
    p.add_argument('--apply', action='store_true', help='move them and rewrite the paths written in full')
    args = p.parse_args()
    moves = plan()
    if args.apply: apply(moves)
    elif args.plan:
        for a, b in moves.items(): print(f'results/{a} -> results/{b}')
    else:
        for a in moves: print(f'not in the layout: results/{a}')
        print(f"{len(run_dirs()) - len(moves)} of {len(run_dirs())} runs in the layout results/<model>/<run>/seed_<s>/")
        sys.exit(1 if moves else 0)
