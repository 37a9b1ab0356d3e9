"""The import statements of Python files, from Python's own syntax tree (crosscheck split).

Reads a JSON list of paths on stdin; writes one JSON object: path -> list of
[module, level, [names]] for every `import` and `from ... import` anywhere in the file
(function bodies and `if TYPE_CHECKING:` blocks included), or path -> {"error": text} when the
file does not parse. `import a.b` gives ["a.b", 0, []]; `from ..x import y` gives ["x", 2, ["y"]].
"""
import ast
import json
import sys


def imports(path):
    with open(path, "rb") as f:
        tree = ast.parse(f.read(), filename=path)
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.extend([alias.name, 0, []] for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            out.append([node.module or "", node.level, [a.name for a in node.names]])
    return out


def main():
    result = {}
    for path in json.load(sys.stdin):
        try:
            result[path] = imports(path)
        except (SyntaxError, ValueError, OSError) as e:
            result[path] = {"error": str(e)}
    json.dump(result, sys.stdout)


main()
