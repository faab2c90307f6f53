"""The repository's size budget, checked by CI: what a `git clone --depth 1` downloads is the tracked tree, so it stays
small enough to clone in seconds. The budget, for every tracked file:

- the tracked tree (the sum of the tracked files' sizes) at most TREE_MB;
- no tracked file over FILE_MB;
- no pickled weights (`*.pt`) tracked, checkpoints (`ckpt_*`) above all: a run's checkpoints live outside the
  repository, a finished run keeps its final model (`model.safetensors`, never unpickled), a stopped one its config
  (`run.json`, `capsule_ae.train.runs.retire_checkpoints`).

The files that still break it are leaving the tree: each is named in tools/tree_leaving.txt, and CEILING_MB is what
the tree may not pass while they leave. Nothing may join them, and the ceiling only comes down.

    python tools/tree_budget.py            # print the sizes; exit 1 when the budget or the ceiling is broken
"""
import subprocess, sys
from pathlib import Path

TREE_MB, FILE_MB = 150, 20
CEILING_MB = 270                      # the tracked tree while LEAVING is not empty; lowered as files leave
LEAVING = set((Path(__file__).parent / 'tree_leaving.txt').read_text().split())   # files still to leave the tree
MB = 1e6

def tracked(root):
    "{path: size in bytes} of the files git tracks under `root`."
    names = subprocess.run(['git', 'ls-files', '-z'], cwd=root, capture_output=True, check=True).stdout.decode()
    return {n: (root / n).stat().st_size for n in names.split('\0') if n and (root / n).is_file()}

def broken(sizes):
    "The tracked files that break the per-file rules: too large, or a checkpoint."
    return sorted(n for n, s in sizes.items() if s > FILE_MB * MB or n.endswith('.pt') or Path(n).name.startswith('ckpt_'))

def check(root):
    "The problems with the tree at `root`, as lines (none when it keeps its budget)."
    sizes = tracked(root); total = sum(sizes.values()) / MB
    problems = [f'{n} ({sizes[n] / MB:.1f} MB) breaks the budget and is not in tools/tree_leaving.txt: keep it outside the repository'
                for n in broken(sizes) if n not in LEAVING]
    ceiling = CEILING_MB if LEAVING else TREE_MB
    if total > ceiling: problems.append(f'the tracked tree is {total:.0f} MB, over its {ceiling} MB ceiling')
    gone = sorted(LEAVING - set(sizes))
    if gone: print(f'left the tree, to be struck from tools/tree_leaving.txt: {", ".join(gone)}')
    still = sum(sizes.get(n, 0) for n in LEAVING) / MB
    print(f'tracked tree {total:.0f} MB in {len(sizes)} files (budget {TREE_MB} MB, ceiling now {ceiling} MB); '
          f'{len(LEAVING) - len(gone)} files still leaving ({still:.0f} MB)')
    return problems

if __name__ == '__main__':
    problems = check(Path(__file__).resolve().parent.parent)
    for p in problems: print('FAIL:', p)
    sys.exit(1 if problems else 0)
