"""The package's functions stay short enough to read at once: no function or method of `capsule_ae/` over LIMIT lines
(its signature and docstring included). Run by CI.

    python tools/function_lengths.py        # lists the long ones; exit 1 when there is any
"""
import ast, sys
from pathlib import Path

LIMIT = 60

def long_functions(package):
    "[(path, line, name, length)] of the functions in the .py files under `package` longer than LIMIT lines."
    found = []
    for path in sorted(Path(package).rglob('*.py')):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                length = node.end_lineno - node.lineno + 1
                if length > LIMIT: found.append((path, node.lineno, node.name, length))
    return found

if __name__ == '__main__':
    found = long_functions(Path(__file__).resolve().parent.parent / 'capsule_ae')
    for path, line, name, length in found: print(f'FAIL: {path}:{line} {name} is {length} lines (at most {LIMIT})')
    print(f'{len(found)} functions over {LIMIT} lines' if found else f'every function within {LIMIT} lines')
    sys.exit(1 if found else 0)
