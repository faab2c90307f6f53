"""Run every Python code block of README.md, each on its own in a fresh process from the repository's root, as a
new user would paste it; exit 1 on the first block that fails.

    python tools/run_readme.py
"""
import re, subprocess, sys, time
from pathlib import Path

root = Path(__file__).resolve().parents[1]


def blocks(text):
    "The ```python blocks of a markdown text."
    return re.findall(r'^```python\n(.*?)^```', text, re.M | re.S)


if __name__ == '__main__':
    found = blocks((root / 'README.md').read_text())
    if not found: sys.exit("README.md holds no ```python block")
    for i, code in enumerate(found, 1):
        t = time.time()
        done = subprocess.run([sys.executable, '-c', code], cwd=root, capture_output=True, text=True)
        print(f"README block {i} of {len(found)} ({time.time() - t:.0f} s):\n{done.stdout}{done.stderr}", flush=True)
        if done.returncode: sys.exit(f"README block {i} failed")
    print(f"{len(found)} README blocks ran")
