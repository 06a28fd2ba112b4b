#!/usr/bin/env python3
"""workload_table.py: the workload table of docs/workloads.md and the
register table of docs/regalloc.md, from each workloads/<app>/meta (and
tests/kernels/<k>/meta) and what the model itself reports (`simt info`).

  workload_table.py SIMT            rewrite both tables
  workload_table.py SIMT --check    exit 1 if a table is stale or a meta
                                    disagrees with the PTX (kernels, our
                                    register count, static shared bytes)

For every workload it lists the resource signature beside the paper's and,
per configuration preset, the CTAs per SM with the limiting resource.  For
every kernel with a ptxas -v figure it lists our register count beside it,
and the distribution of the ratio.
"""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOC = os.path.join(ROOT, "docs", "workloads.md")
RA_DOC = os.path.join(ROOT, "docs", "regalloc.md")
RA_BEGIN, RA_END = "<!-- regalloc-table:begin -->", "<!-- regalloc-table:end -->"
PRESETS = ["fermi-gtx480", "kepler-ss", "g80-dwf", "fermi-cta"]
BEGIN, END = "<!-- workload-table:begin -->", "<!-- workload-table:end -->"
SHORT = {"threads": "thr", "warps": "warps", "CTA slots": "CTAs",
         "registers": "regs", "shared memory": "smem"}


def fail(msg):
    sys.stderr.write("workload_table: error: %s\n" % msg)
    sys.exit(2)


def strip_comment(line):
    """A '#' starts a comment at the start of a line or after a blank when
    a blank or the end follows it, so '# note' is a comment and 'Table 1 #1'
    is text."""
    m = re.search(r"(^|\s)#(\s|$)", line)
    return line[:m.start()] if m else line


def read_meta(path):
    """Folder keys and an ordered list of (section, keys)."""
    top, sections, cur = {}, [], None
    with open(path) as f:
        for n, line in enumerate(f, 1):
            text = strip_comment(line).strip()
            if not text:
                continue
            m = re.fullmatch(r"\[([A-Za-z0-9_]+)\]", text)
            if m:
                cur = {}
                sections.append((m.group(1), cur))
                continue
            if "=" not in text:
                fail("%s:%d: expected key = value or [workload]" % (path, n))
            k, v = (s.strip() for s in text.split("=", 1))
            (cur if cur is not None else top)[k] = v
    return top, sections


def split_list(v):
    return [s.strip() for s in v.split(",")] if v else []


def info(simt, ptx, args=()):
    """simt info output parsed per kernel: regs, static shared, occupancy."""
    out = subprocess.run([simt, "info", ptx] + list(args), cwd=ROOT,
                         capture_output=True, text=True)
    if out.returncode:
        fail("simt info %s: %s" % (ptx, out.stderr.strip()))
    kernels, cur = {}, None
    for line in out.stdout.splitlines():
        m = re.match(r"kernel (\S+)", line)
        if m:
            cur = kernels.setdefault(m.group(1), {})
        elif cur is not None:
            m = re.search(r"registers: +(\d+) per thread", line)
            if m:
                cur["regs"] = int(m.group(1))
            m = re.search(r"shared memory: +(\d+) bytes static", line)
            if m:
                cur["smem"] = int(m.group(1))
            m = re.search(r"occupancy: +(\d+) CTAs/SM .* limited by ([a-zA-Z ]+) \(", line)
            if m:
                cur["occ"] = (int(m.group(1)), m.group(2))
    return kernels


def rows(simt):
    problems, out = [], []
    wdir = os.path.join(ROOT, "workloads")
    for app in sorted(os.listdir(wdir)) if os.path.isdir(wdir) else []:
        meta = os.path.join(wdir, app, "meta")
        if not os.path.exists(meta):
            continue
        ptx = os.path.join("workloads", app, "kernel.ptx")
        top, sections = read_meta(meta)
        kernels = split_list(top.get("kernels", ""))
        ours = split_list(top.get("simt_regs", ""))
        ptxas = split_list(top.get("ptxas_regs", ""))
        base = info(simt, ptx)
        if sorted(kernels) != sorted(base):
            problems.append("%s: kernels = %s but the PTX has %s"
                            % (meta, ", ".join(kernels), ", ".join(sorted(base))))
        for i, k in enumerate(kernels):
            if k in base and (i >= len(ours) or ours[i] != str(base[k]["regs"])):
                problems.append("%s: simt_regs for %s is %s, our allocator gives %d"
                                % (meta, k, ours[i] if i < len(ours) else "missing",
                                   base[k]["regs"]))
        for name, s in sections:
            k = s.get("kernel", "").split("+")[0].strip()
            if k not in base:
                problems.append("%s [%s]: kernel '%s' is not in the PTX" % (meta, name, k))
                continue
            thr, smem = int(s.get("threads_per_block", "0")), int(s.get("shared_bytes", "0"))
            static = base[k]["smem"]
            if smem < static:
                problems.append("%s [%s]: shared_bytes %d < the kernel's static %d"
                                % (meta, name, smem, static))
            occ = []
            for p in PRESETS:
                o = info(simt, ptx, ["--config", "configs/%s.cfg" % p, "--block",
                                     str(thr), "--dynamic-shared", str(max(0, smem - static))])
                n, lim = o[k]["occ"]
                occ.append("%d (%s)" % (n, SHORT.get(lim, lim)))
            idx = kernels.index(k) if k in kernels else -1
            regs = "%s/%s" % (ours[idx] if 0 <= idx < len(ours) else "?",
                              ptxas[idx] if 0 <= idx < len(ptxas) else "?")
            out.append("| `%s` | %s | %d | %d | %s | %s | %s%s | %s | %s |" % (
                name, k, thr, smem, s.get("shared_vars", "?"), regs,
                s.get("paper_signature", ""),
                ("; %s regs" % s["paper_regs"]) if "paper_regs" in s else "",
                " | ".join(occ), s.get("paper", "")))
    return out, problems


def median(v):
    v = sorted(v)
    n = len(v)
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2


def regalloc_table(simt):
    """Every kernel with a ptxas -v figure: ours beside it, then the
    distribution of ours/ptxas."""
    lines, ratios = [], []
    for top_dir in ("workloads", "tests/kernels"):
        d = os.path.join(ROOT, top_dir)
        for app in sorted(os.listdir(d)) if os.path.isdir(d) else []:
            meta = os.path.join(d, app, "meta")
            if not os.path.exists(meta):
                continue
            top, _ = read_meta(meta)
            kernels = split_list(top.get("kernels", ""))
            ptxas = split_list(top.get("ptxas_regs", ""))
            base = info(simt, os.path.join(top_dir, app, "kernel.ptx"))
            for i, k in enumerate(kernels):
                if i >= len(ptxas) or k not in base:
                    continue
                ours, theirs = base[k]["regs"], int(ptxas[i])
                ratios.append(ours / theirs)
                lines.append("| %s | `%s` | %d | %d | %.2f |"
                             % (k, "%s/%s" % (top_dir, app), theirs, ours, ours / theirs))
    r = sorted(ratios)
    q = lambda f: r[min(len(r) - 1, int(f * len(r)))]
    summary = ("%d kernels; ours/ptxas: median %.2f, quartiles %.2f and %.2f, "
               "range %.2f to %.2f; %d within 20%% (0.8 to 1.25)."
               % (len(r), median(r), q(0.25), q(0.75), r[0], r[-1],
                  sum(1 for x in r if 0.8 <= x <= 1.25))) if r else "no kernels"
    return ("| kernel | folder | ptxas -v | ours | ours/ptxas |\n"
            "|---|---|---|---|---|\n" + "\n".join(lines) + "\n\n" + summary + "\n")


def replace_between(doc, begin, end, body, path):
    if begin not in doc or end not in doc:
        fail("%s has no %s ... %s markers" % (path, begin, end))
    pre, rest = doc.split(begin, 1)
    return pre + begin + "\n" + body + end + rest.split(end, 1)[1]


def table(lines):
    head = ("| workload | kernel | thr/CTA | smem B | vars | regs ours/ptxas | paper signature | "
            + " | ".join(PRESETS) + " | paper tables |\n"
            + "|---" * (8 + len(PRESETS)) + "|\n")
    return head + "\n".join(lines) + "\n"


def main():
    if len(sys.argv) < 2 or sys.argv[2:] not in ([], ["--check"]):
        fail("usage: workload_table.py SIMT [--check]")
    simt = os.path.abspath(sys.argv[1])
    lines, problems = rows(simt)
    with open(DOC) as f:
        doc = f.read()
    new = replace_between(doc, BEGIN, END, table(lines), DOC)
    with open(RA_DOC) as f:
        ra_doc = f.read()
    ra_new = replace_between(ra_doc, RA_BEGIN, RA_END, regalloc_table(simt), RA_DOC)
    if sys.argv[2:] == ["--check"]:
        if new != doc:
            problems.append("docs/workloads.md is stale: run "
                            "scripts/workload_table.py build/bin/simt")
        if ra_new != ra_doc:
            problems.append("docs/regalloc.md's register table is stale: run "
                            "scripts/workload_table.py build/bin/simt")
        for p in problems:
            print("FAIL " + p)
        print("%d passed, %d failed" % (0 if problems else 1, len(problems)))
        sys.exit(1 if problems else 0)
    for p in problems:
        sys.stderr.write("workload_table: warning: %s\n" % p)
    for path, text in ((DOC, new), (RA_DOC, ra_new)):
        tmp = path + ".tmp"
        with open(tmp, "w") as f:
            f.write(text)
        os.replace(tmp, path)


if __name__ == "__main__":
    main()
