# select: RES203, RES204
# An interpreter's loop: its ``try`` calls the function it is in again, and catches the
# control-flow errors the interpreter raises itself; nothing there goes out.
import re

from .utils import ExtractorError


class JS_Break(ExtractorError):
    def __init__(self):
        ExtractorError.__init__(self, "Invalid break")


class JS_Continue(ExtractorError):
    def __init__(self):
        ExtractorError.__init__(self, "Invalid continue")


class JSInterpreter:
    def interpret_expression(self, expr, local_vars):
        m = re.fullmatch(r"(\w+)\s*<\s*(\d+)", expr)
        if m:
            return local_vars[m.group(1)] < int(m.group(2))
        return None

    def interpret_statement(self, stmt, local_vars, allow_recursion=100):
        if allow_recursion < 0:
            raise ExtractorError("Recursion limit reached")
        m = re.fullmatch(r"for\((\w+);([^;]*);([^)]*)\)\{(.*)\}", stmt)
        if stmt == "break":
            raise JS_Break
        elif stmt == "continue":
            raise JS_Continue
        elif m:
            cndn, increment, body = m.group(2), m.group(3), m.group(4)
            while True:
                if not self.interpret_expression(cndn, local_vars):
                    break
                try:
                    ret, should_abort = self.interpret_statement(body, local_vars, allow_recursion - 1)
                    if should_abort:
                        return ret, True
                except JS_Break:
                    break
                except JS_Continue:
                    pass
                self.interpret_expression(increment, local_vars)
        return self.interpret_expression(stmt, local_vars), False
