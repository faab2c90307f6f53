"""The repository's size budget, checked by CI: what a `git clone --depth 1` downloads is the tracked tree, so it stays
small enough to clone in seconds. The budget, for every tracked file:

- the tracked tree (the sum of the tracked files' sizes) at most TREE_MB;
- no tracked file over FILE_MB;
- no pickled weights (`*.pt`) tracked, checkpoints (`ckpt_*`) above all: a run's checkpoints live outside the
  repository, a finished run keeps its final model (`model.safetensors`, never unpickled) when it ships, a stopped
  one its config (`run.json`, `capsule_ae.train.runs.retire_checkpoints`).

With --clone it also clones the committed HEAD with `git clone --depth 1` into a temporary folder and reports what
that takes on disk (checkout and `.git` together), failing past CLONE_MB; --write FILE records that measure (the
README's clone line reads results/clone_size.json, written by tools/tree_budget.py --clone --write).

    python tools/tree_budget.py [--clone [--write results/clone_size.json]]   # exit 1 when the budget is broken
"""
import argparse, json, subprocess, sys, tempfile
from pathlib import Path

TREE_MB, FILE_MB, CLONE_MB = 150, 20, 150
MB = 1e6

def tracked(root):
    "{path: size in bytes} of the files git tracks under `root`."
    names = subprocess.run(['git', 'ls-files', '-z'], cwd=root, capture_output=True, check=True).stdout.decode()
    return {n: (root / n).stat().st_size for n in names.split('\0') if n and (root / n).is_file()}

def broken(sizes):
    "The tracked files that break the per-file rules: too large, or pickled weights."
    return sorted(n for n, s in sizes.items()
                  if s > FILE_MB * MB or n.endswith('.pt') or Path(n).name.startswith('ckpt_'))

def check(root):
    "The problems with the tree at `root`, as lines (none when it keeps its budget)."
    sizes = tracked(root); total = sum(sizes.values()) / MB
    problems = [f'{n} ({sizes[n] / MB:.1f} MB) breaks the budget (over {FILE_MB} MB, or pickled weights): keep it '
                'outside the repository' for n in broken(sizes)]
    if total > TREE_MB: problems.append(f'the tracked tree is {total:.0f} MB, over its {TREE_MB} MB budget')
    print(f'tracked tree {total:.1f} MB in {len(sizes)} files (budget {TREE_MB} MB)')
    return problems

def clone_size(root):
    "MB on disk of a `git clone --depth 1` of the committed HEAD at `root` (every file's blocks, `.git` included)."
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(['git', 'clone', '-q', '--depth', '1', f'file://{root}', f'{tmp}/clone'], check=True)
        du = lambda d: int(subprocess.run(['du', '-sk', d], capture_output=True, text=True, check=True).stdout.split()[0])
        return du(f'{tmp}/clone') * 1024 / MB, du(f'{tmp}/clone/.git') * 1024 / MB

if __name__ == '__main__':
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument('--clone', action='store_true', help=f'measure a depth-1 clone on disk too (at most {CLONE_MB} MB)')
    p.add_argument('--write', type=Path, help='with --clone: write the measure to this JSON file')
    args = p.parse_args()
    root = Path(__file__).resolve().parent.parent
    problems = check(root)
    if args.clone:
        total, git = clone_size(root)
        print(f'git clone --depth 1: {total:.1f} MB on disk, of which .git {git:.1f} MB (budget {CLONE_MB} MB)')
        if total > CLONE_MB: problems.append(f'a depth-1 clone takes {total:.0f} MB on disk, over {CLONE_MB} MB')
        if args.write:
            tree = sum(tracked(root).values()) / MB
            head = subprocess.run(['git', 'rev-parse', '--short', 'HEAD'], cwd=root, capture_output=True, text=True)
            args.write.write_text(json.dumps({'clone_mb': round(total, 1), 'git_mb': round(git, 1),
                                              'tree_mb': round(tree, 1), 'commit': head.stdout.strip(),
                                              'budget_mb': CLONE_MB, 'command': 'python tools/tree_budget.py --clone'},
                                             indent=1) + '\n')
    for line in problems: print('FAIL:', line)
    sys.exit(1 if problems else 0)
