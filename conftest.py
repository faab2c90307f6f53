"""pytest collects the notebooks' tests: one test per notebook in `nbs/`, run the way `nbdev_test` runs it (in the
notebook's folder, cells flagged with a `tst_flags` flag of settings.ini, `slow` and `cuda`, skipped).

    pytest                      # every notebook, the usual `N passed` summary
    pytest -k ccae -x           # the notebooks whose name holds "ccae", stop at the first failure
    pytest --flags slow         # also the cells flagged slow (long runs, or reading committed results)

A failing notebook's traceback is shown under "Captured stderr"."""
import configparser
from pathlib import Path
import pytest

ROOT = Path(__file__).parent


def _tst_flags():
    cfg = configparser.ConfigParser(delimiters=['='])
    cfg.read(ROOT / 'settings.ini', encoding='utf-8')
    return cfg['DEFAULT'].get('tst_flags', '').split()


def pytest_addoption(parser):
    parser.addoption('--flags', default='', help='also run the notebook cells flagged with these flags (e.g. "slow")')


def pytest_configure(config):
    try: import nbdev  # noqa: F401
    except ImportError: pytest.exit('the notebook tests need nbdev: pip install -e ".[dev]"', returncode=4)


def pytest_collect_file(parent, file_path):
    if file_path.suffix == '.ipynb' and file_path.parent == ROOT / 'nbs' and not file_path.name.startswith(('_', '.')):
        return NotebookFile.from_parent(parent, path=file_path)


class NotebookFile(pytest.File):
    def collect(self):
        yield NotebookItem.from_parent(self, name=self.path.stem)


class NotebookFailed(Exception):
    pass


class NotebookItem(pytest.Item):
    def runtest(self):
        from nbdev.test import test_nb
        force = self.config.getoption('--flags').split()
        ok, seconds = test_nb(self.path, skip_flags=_tst_flags(), force_flags=force, showerr=True)
        if not ok: raise NotebookFailed(f"{self.path.name} failed (traceback under 'Captured stderr call')")

    def repr_failure(self, excinfo):
        if isinstance(excinfo.value, NotebookFailed): return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self):
        return self.path, 0, f"notebook {self.path.name}"
