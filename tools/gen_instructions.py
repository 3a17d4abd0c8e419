#!/usr/bin/env python3
"""Generates the interpreter's instruction handlers and metadata from vm/instructions.tab.

Each instruction in the table is declared once:

    name Op1=kinds Op2=kinds ... [flags] {
        body (C++), operands written as $Op1, $Op2
    }

Every combination of the operands' kind letters becomes one specific instruction
(`move S=xyc D=xy` gives move_xx, move_xy, move_cx, ...), so the loader can pick the variant
that needs no run-time branch on where its operands live. Kind letters and what an operand
word holds:

    x  x register number        $Op is x[n]
    y  y register (stack slot)  $Op is E[n]
    c  constant term            $Op is the term
    a  any register or constant, decoded at run time (cold instructions: one variant only)
    f  label: code address      $Op is a const Word*
    u  raw word                 $Op is the Word
    n  small raw word (a count, a position): as u, but packed in `pack` instructions
    p  pointer (export, BIF, fun entry, table)  $Op is the Word; cast in the body

Flags: `jump` means the body always transfers control itself (no fall-through to the next
instruction); otherwise the generated code advances past the operands and dispatches.
`pack` packs the variant's x, y and n operands, when it has two or more, into 16-bit fields
of the words after the handler (four to a word, in declaration order); its other operands
follow, in order. The code is denser (`move_xy` takes two words instead of three, `move2` two
instead of five), so fewer of the interpreter's loads miss the data cache. The body of a `pack`
instruction names its operands only through $Op: no I[...] and no fixed NEXT(n); `I + $SIZE`,
the next instruction, is allowed ($SIZE is the variant's size in words, in any body). Each
packed variant has a wide twin, `<name>_wide`, a word per operand, which the loader takes when
a value does not fit in 16 bits. loader/emitter.cpp lays operands out by the same rule
(InstrMeta::packed).

Outputs (in the output folder): instr_ids.inc (enum values), instr_meta.inc (name, kinds,
size per specific instruction) and instr_handlers.inc (labels + bodies for the dispatch loop).
"""
import itertools
import re
import sys

KINDS = {
    "x": "x[I[{n}]]",
    "y": "E[I[{n}]]",
    "c": "Term{{I[{n}]}}",
    "a": "ANY(I[{n}])",
    "f": "((const Word*)I[{n}])",
    "u": "I[{n}]",
    "n": "I[{n}]",
    "p": "I[{n}]",
}
# A packed operand: field k of the packed words (word 1 + k / 4, bytes 2 * (k % 4)).
PACKED_KINDS = {
    "x": "x[PACKED_FIELD(I, {k})]",
    "y": "E[PACKED_FIELD(I, {k})]",
    "n": "PACKED_FIELD(I, {k})",
}
FIELDS_PER_WORD = 4

HEAD_RE = re.compile(r"^(\w+)((?:\s+\w+=[a-z]+)*)((?:\s+[a-z_]+)*)\s*\{\s*$")


class Instr:
    def __init__(self, name, operands, flags, body, line):
        self.name = name
        self.operands = operands  # list of (opname, kinds)
        self.flags = flags
        self.body = body
        self.line = line

    def variants(self):
        """(specific name, kind letters, packed): a packed variant comes with its wide twin."""
        kind_lists = [list(k) for _, k in self.operands]
        for combo in itertools.product(*kind_lists):
            suffix = "".join(combo)
            name = self.name + ("_" + suffix if suffix else "")
            if "pack" in self.flags and packed_count(suffix) >= 2:
                yield (name, suffix, True)
                yield (name + "_wide", suffix, False)
            else:
                yield (name, suffix, False)


def packed_count(suffix):
    return sum(1 for k in suffix if k in PACKED_KINDS)


def parse(path):
    instrs = []
    lines = open(path, encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines):
        raw = lines[i]
        stripped = raw.strip()
        i += 1
        if not stripped or stripped.startswith("//"):
            continue
        m = HEAD_RE.match(stripped)
        if not m:
            sys.exit(f"{path}:{i}: cannot parse instruction header: {stripped}")
        name = m.group(1)
        operands = [tuple(o.split("=")) for o in m.group(2).split()]
        flags = m.group(3).split()
        for kinds in (k for _, k in operands):
            for k in kinds:
                if k not in KINDS:
                    sys.exit(f"{path}:{i}: unknown operand kind '{k}'")
        body = []
        start = i + 1
        while i < len(lines) and lines[i].rstrip() != "}":
            body.append(lines[i])
            i += 1
        if i >= len(lines):
            sys.exit(f"{path}:{start}: unterminated body of {name}")
        i += 1
        positional = re.sub(r"\bI \+ \$SIZE\b", "", "\n".join(body))
        if "pack" in flags and re.search(r"\bI\s*\[|\bI\s*\+|NEXT\(", positional):
            sys.exit(f"{path}:{start}: {name} is `pack` but its body reads the code by position")
        instrs.append(Instr(name, operands, flags, "\n".join(body), start))
    return instrs


def expand_body(instr, suffix, packed, tab_path):
    names = [o for o, _ in instr.operands]
    subst = {}
    if packed:
        fields = packed_count(suffix)
        words = (fields + FIELDS_PER_WORD - 1) // FIELDS_PER_WORD
        k, at = 0, 1 + words
        for opname, kind in zip(names, suffix):
            if kind in PACKED_KINDS:
                subst[opname] = "(" + PACKED_KINDS[kind].format(k=k) + ")"
                k += 1
            else:
                subst[opname] = "(" + KINDS[kind].format(n=at) + ")"
                at += 1
        size = at
    else:
        for idx, (opname, kind) in enumerate(zip(names, suffix)):
            subst[opname] = "(" + KINDS[kind].format(n=idx + 1) + ")"
        size = 1 + len(names)

    subst["SIZE"] = str(size)

    def repl(m):
        key = m.group(1)
        if key not in subst:
            sys.exit(f"{tab_path}:{instr.line}: {instr.name} uses undeclared operand ${key}")
        return subst[key]

    body = re.sub(r"\$(\w+)", repl, instr.body)
    return body, size


def handler(instr, vname, body, size, tab_path):
    count = f"    OP_COUNT(Op::{enum_name(vname)}, {size});"
    out = [count, f"#line {instr.line} \"{tab_path}\"", body]
    if "jump" not in instr.flags:
        out.append(f"    NEXT({size});")
    return "\n".join(out)


CPP_KEYWORDS = {"return", "catch", "try", "throw", "new", "delete", "and", "or", "not", "xor", "default"}


def enum_name(name):
    """Enum values may not be C++ keywords (return, catch): those get a trailing underscore."""
    return name + "_" if name in CPP_KEYWORDS else name


def main():
    tab_path, out_dir = sys.argv[1], sys.argv[2]
    import os

    os.makedirs(out_dir, exist_ok=True)
    instrs = parse(tab_path)
    seen = set()
    ids, meta, handlers = [], [], []
    banner = "// Generated by tools/gen_instructions.py from vm/instructions.tab. Do not edit.\n"
    for ins in instrs:
        for vname, suffix, packed in ins.variants():
            if vname in seen:
                sys.exit(f"duplicate specific instruction {vname}")
            seen.add(vname)
            body, size = expand_body(ins, suffix, packed, tab_path)
            ids.append(f"    {enum_name(vname)},")
            meta.append(f'    {{"{vname}", "{ins.name}", "{suffix}", {size}, {str(packed).lower()}}},')
            handlers.append(f"L_{vname}: {{\n{handler(ins, vname, body, size, tab_path)}\n}}\n")
    with open(os.path.join(out_dir, "instr_ids.inc"), "w") as f:
        f.write(banner + "\n".join(ids) + "\n")
    with open(os.path.join(out_dir, "instr_meta.inc"), "w") as f:
        f.write(banner + "\n".join(meta) + "\n")
    labels = ",\n".join(f"    &&L_{n.rstrip('_') if n.rstrip('_') in CPP_KEYWORDS else n}" for n in (l.split(",")[0].strip() for l in ids))
    with open(os.path.join(out_dir, "instr_handlers.inc"), "w") as f:
        f.write(banner)
        f.write("static const void* const handler_table[] = {\n" + labels + "\n};\n")
        f.write("if (handlers_out) { *handlers_out = handler_table; return {}; }\n")
        f.write("DISPATCH();\n")
        f.write("\n".join(handlers))


if __name__ == "__main__":
    main()
