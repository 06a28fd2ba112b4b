"""metrics.py: a metric is an arithmetic expression over a run's
statistics (the "stats" names of `simt run --json`, docs/stats.md), e.g.
`l1d_hits / l1d_accesses`.

Only numbers, statistic names, + - * / and parentheses are accepted (the
expression is checked once, when the study is loaded, and never handed to
eval).  A division by zero gives None: the cell is shown as empty, not as
an error, since a metric such as a hit rate has no value for a run without
accesses.
"""
import ast

_OPS = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b,
        ast.Mult: lambda a, b: a * b, ast.Div: lambda a, b: a / b}


def compile_expr(text):
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError:
        raise ValueError("'%s' is not an expression (statistic names, numbers, + - * / "
                         "and parentheses)" % text)
    for node in ast.walk(tree):
        ok = isinstance(node, (ast.Expression, ast.BinOp, ast.UnaryOp, ast.Name, ast.Load,
                               ast.USub, ast.UAdd) + tuple(_OPS))
        ok = ok or (isinstance(node, ast.Constant) and isinstance(node.value, (int, float)))
        if not ok:
            raise ValueError("'%s': only statistic names, numbers, + - * / and parentheses "
                             "are allowed" % text)
    return tree.body


def names(expr):
    return sorted({n.id for n in ast.walk(expr) if isinstance(n, ast.Name)})


def evaluate(expr, stats):
    """The value over one run's stats dict; None where undefined.  A name
    the statistics lack is a KeyError (the caller names the metric)."""
    if isinstance(expr, ast.Constant):
        return expr.value
    if isinstance(expr, ast.Name):
        return stats[expr.id]
    if isinstance(expr, ast.UnaryOp):
        v = evaluate(expr.operand, stats)
        return None if v is None else (-v if isinstance(expr.op, ast.USub) else v)
    a, b = evaluate(expr.left, stats), evaluate(expr.right, stats)
    if a is None or b is None:
        return None
    try:
        return _OPS[type(expr.op)](a, b)
    except ZeroDivisionError:
        return None
