import re
import subprocess

PC_RE = re.compile(r"PC\s*:\s*(0x4[0-9a-fA-F]{7})")


def process_stacktrace(elf, line, backtrace_state):
    match = PC_RE.search(line)
    if match is not None:
        subprocess.run(["addr2line", "-e", elf, match.group(1)], check=False)
    return backtrace_state
