"""Build the course as a website, offline, from the notebooks' committed outputs, and check it in a browser.

    pip install mkdocs-material mkdocs-jupyter
    python tools/build_site.py            # stage nbs/ and MathJax in build/docs, write site/ (open site/index.html)
    python tools/build_site.py --check    # then open pages in headless Chromium: fail on a blank page, an equation
                                          # MathJax did not typeset, or an image that does not load

MathJax comes from the npm package `mathjax` (`npm pack`, nothing installed), kept in $CAPSULE_AE_DATA (default
~/.cache/capsule_ae) and served from the site itself, so the pages need no network.
"""
import json, os, re, shutil, subprocess, sys, tarfile, tempfile
from pathlib import Path

root = Path(__file__).resolve().parent.parent
MATHJAX = 'mathjax@3.2.2'
CHECKED = ['00_capsules.html', '04_capsnet_training.html']   # equations and figures: each must show both
CONFIG = r"""window.MathJax = {
  tex: {inlineMath: [['$', '$'], ['\\(', '\\)']], displayMath: [['$$', '$$'], ['\\[', '\\]']], processEscapes: true},
  startup: {pageReady: () => MathJax.startup.defaultPageReady().then(() => {
    // what the browser check reads back: typeset equations, MathJax errors, images loaded and broken
    const images = [...document.images], b = document.body.dataset;
    b.equations = document.querySelectorAll('mjx-container').length;
    b.mathErrors = document.querySelectorAll('mjx-merror').length;
    b.images = images.filter(i => i.complete && i.naturalWidth > 0).length;
    b.brokenImages = images.filter(i => i.complete && i.naturalWidth === 0).length;
  })}
};
(function () {
  const s = document.createElement('script'); s.src = 'assets/mathjax/tex-mml-chtml.js'; s.async = true;
  document.head.appendChild(s);
})();
"""


def mathjax_dir():
    "MathJax's es5 folder, unpacked from the npm package once into the data folder."
    cache = Path(os.environ.get('CAPSULE_AE_DATA', Path.home() / '.cache' / 'capsule_ae')) / 'mathjax'
    es5 = cache / 'package' / 'es5'
    if (es5 / 'tex-mml-chtml.js').exists(): return es5
    cache.mkdir(parents=True, exist_ok=True)
    if not shutil.which('npm'): sys.exit("MathJax is fetched with npm (`npm pack mathjax`): install node and npm")
    got = subprocess.run(['npm', 'pack', MATHJAX], cwd=cache, capture_output=True, text=True)
    if got.returncode: sys.exit(f"npm pack {MATHJAX} failed: {got.stderr.strip().splitlines()[-1:]}")
    with tarfile.open(cache / got.stdout.strip().splitlines()[-1]) as t: t.extractall(cache, filter='data')
    return es5


def for_readers(path):
    "A notebook as the site shows it: without the cells nbdev hides, and without nbdev's `#|` directive lines."
    nb = json.loads(path.read_text())
    cells = []
    for c in nb['cells']:
        text = ''.join(c['source']) if isinstance(c['source'], list) else c['source']
        if c['cell_type'] == 'code':
            if re.match(r'#\|\s*hide\b', text): continue
            text = '\n'.join(l for l in text.split('\n') if not re.match(r'#\|', l))
        cells.append({**c, 'source': text})
    return {**nb, 'cells': cells}


def stage():
    "build/docs: every notebook of nbs/ and MathJax with its configuration."
    docs = root / 'build' / 'docs'
    shutil.rmtree(docs, ignore_errors=True); (docs / 'assets').mkdir(parents=True)
    for nb in sorted((root / 'nbs').glob('*.ipynb')): (docs / nb.name).write_text(json.dumps(for_readers(nb)))
    shutil.copytree(mathjax_dir(), docs / 'assets' / 'mathjax')
    (docs / 'assets' / 'mathjax-config.js').write_text(CONFIG)
    return docs


def check_nav(docs):
    "Every staged notebook is in mkdocs.yml's nav, and the nav names no notebook that is not there."
    nav = set(re.findall(r'(\w+\.ipynb)', (root / 'mkdocs.yml').read_text()))
    staged = {p.name for p in docs.glob('*.ipynb')}
    if nav != staged: sys.exit(f"mkdocs.yml's nav and nbs/ differ: {sorted(nav ^ staged)}")


def build():
    docs = stage(); check_nav(docs)
    done = subprocess.run([sys.executable, '-m', 'mkdocs', 'build', '--quiet', '--clean'], cwd=root,
                          env={**os.environ, 'NO_MKDOCS_2_WARNING': '1'})
    if done.returncode: sys.exit("mkdocs build failed")
    print(f"site built: {root / 'site' / 'index.html'}")


def page_state(page, shot=None):
    "The data the page's MathJax configuration wrote on <body> once typeset, read by headless Chromium."
    chromium = shutil.which('chromium') or shutil.which('chromium-browser') or shutil.which('google-chrome')
    if not chromium: sys.exit("the check needs Chromium (Debian: apt-get install chromium)")
    with tempfile.TemporaryDirectory() as profile:
        flags = [chromium, '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
                 '--disable-background-networking', '--disable-component-update', '--disable-sync',
                 f'--user-data-dir={profile}', '--virtual-time-budget=30000']
        dom = subprocess.run([*flags, '--dump-dom', page.as_uri()], capture_output=True, text=True, timeout=300).stdout
        if shot: subprocess.run([*flags, '--window-size=1200,1600', f'--screenshot={shot}', page.as_uri()],
                                capture_output=True, timeout=300)
    body = re.search(r'<body([^>]*)>', dom)
    state = dict(re.findall(r'data-([\w-]+)="(\d+)"', body.group(1))) if body else {}
    text = re.sub(r'<[^>]+>', ' ', re.sub(r'<(script|style)[^>]*>.*?</\1>', ' ', dom, flags=re.S))
    return {k: int(v) for k, v in state.items()}, len(text.split())


def check():
    problems = []
    for name in CHECKED:
        state, words = page_state(root / 'site' / name, root / 'build' / name.replace('.html', '.png'))
        print(f"{name}: {words} words, {state.get('equations', 0)} equations typeset, "
              f"{state.get('images', 0)} images shown, {state.get('math-errors', 0)} MathJax errors, "
              f"{state.get('broken-images', 0)} broken images")
        if words < 300: problems.append(f"{name} is blank ({words} words)")
        if 'equations' not in state: problems.append(f"{name}: MathJax did not run")
        elif state['equations'] == 0 or state['math-errors']: problems.append(f"{name}: equations did not typeset")
        if state.get('images', 0) == 0 or state.get('broken-images', 0): problems.append(f"{name}: figures did not load")
    for p in problems: print('FAIL:', p)
    if problems: sys.exit(1)


if __name__ == '__main__':
    build()
    if '--check' in sys.argv: check()
