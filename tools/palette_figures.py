"""Store the figures a notebook shows with a palette of 256 colours, as `capsule_ae.train.runs.save_figure` stores a
run's: a plot has few colours, so its PNG is less than half the full-colour one. A figure is replaced only when the
palette file is smaller and changes the render by less than half a level of 255 on average; figures already in a
palette are left alone. Run it after executing a chapter, before committing (the tree budget counts the notebooks).

    python tools/palette_figures.py [nbs/04_capsnet_training.ipynb ...]    # default: every notebook in nbs/
"""
import argparse, base64, io, json
from pathlib import Path
import numpy as np, PIL.Image as Image

def palette_png(data, tolerance=0.5):
    "The PNG bytes `data` in a 256-colour palette, or None when that is not smaller or moves pixels too far."
    image = Image.open(io.BytesIO(data))
    if image.mode == 'P': return None
    rgb = image.convert('RGB')
    q = rgb.quantize(256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    if np.abs(np.asarray(q.convert('RGB'), dtype=int) - np.asarray(rgb, dtype=int)).mean() >= tolerance: return None
    buf = io.BytesIO(); q.save(buf, format='png', optimize=True)
    return buf.getvalue() if len(buf.getvalue()) < len(data) else None

def palette_notebook(path):
    "Replace the figures of the notebook at `path` in place; returns (bytes before, bytes after) of its figures."
    nb = json.loads(Path(path).read_text()); before = after = 0
    for cell in nb['cells']:
        for out in cell.get('outputs', []):
            data = out.get('data', {})
            if 'image/png' not in data: continue
            raw = base64.b64decode(''.join(data['image/png']))
            new = palette_png(raw)
            before += len(raw); after += len(new or raw)
            if new: data['image/png'] = base64.b64encode(new).decode()
    if after < before: Path(path).write_text(json.dumps(nb, indent=1, ensure_ascii=False) + '\n')
    return before, after

if __name__ == '__main__':
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument('notebooks', nargs='*', type=Path, help='notebooks to rewrite (default: every one in nbs/)')
    args = p.parse_args()
    for nb in args.notebooks or sorted((Path(__file__).resolve().parent.parent / 'nbs').glob('*.ipynb')):
        before, after = palette_notebook(nb)
        if after < before: print(f'{nb.name}: figures {before / 1e3:.0f} kB -> {after / 1e3:.0f} kB')
