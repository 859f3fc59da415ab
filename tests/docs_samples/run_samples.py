#!/usr/bin/env python3
"""Build and run every code sample of README.md and docs/*.md.

Each fenced block that is a sample has a line before it (blank lines
between are allowed) that says what it is:

  <!-- sample: program NAME ARGS... -->   a ```c block, a whole program:
        compiled as NAME and run with ARGS; exit status 0
  <!-- sample: fragment WRAPPER -->       a ```c block, statements: put in
        place of the /* SAMPLE */ line of tests/docs_samples/WRAPPER.c,
        compiled and run; exit status 0
  <!-- sample: sh -->                     a ```sh block, run by sh -eu
  <!-- sample: transcript -->             a block of `$ COMMAND` lines, each
        followed by the output it prints (stdout and stderr): each command
        runs through sh and must print exactly that

Every relative link of those files must name a file of the tree and,
after a #, one of its headings. A ```c block without such a line is an error, so no C sample goes
untested. Everything runs in a scratch folder holding a link to the
source tree's data/ folder and the databases demo.twz (data/demo.map),
city.twz (data/city.gr with data/city.co), rooms.twz (data/rooms.obj)
and world.twz (data/demo.map baked with --chunk 4K),
with the build's twigz first on PATH. C samples compile as a game
compiles them, with the flags `pkg-config --cflags --libs twigz` gives
for the build tree's uninstalled twigz.pc, and -std=c11 -Wall -Wextra
-Werror. Prints TAP: one line a sample, naming its file and line.
"""
import argparse
import glob
import os
import re
import shlex
import shutil
import subprocess
import sys

MARK = re.compile(r'^<!-- sample: (\S+)(?: (.*?))? -->$')


def blocks(path):
    """Yields (line, language, marker words or None, text) for each fence."""
    lines = open(path, encoding='utf-8').read().split('\n')
    marker = None
    i = 0
    while i < len(lines):
        line = lines[i]
        m = MARK.match(line)
        if m:
            marker = (m.group(1), (m.group(2) or '').split(), i + 1)
        elif line.lstrip().startswith('```'):
            # A fence may be indented (in a list item): so is its text.
            indent = len(line) - len(line.lstrip())
            lang = line.strip()[3:].strip()
            start = i + 1
            j = start
            while j < len(lines) and lines[j].strip() != '```':
                j += 1
            text = [x[indent:] for x in lines[start:j]]
            yield start, lang, marker, '\n'.join(text) + '\n'
            marker = None
            i = j
        elif line.strip():
            marker = None
        i += 1


def anchors(path):
    """The anchors of a Markdown file's headings, as GitHub makes them."""
    found = set()
    seen = {}
    fence = False
    for line in open(path, encoding='utf-8').read().split('\n'):
        if line.startswith('```'):
            fence = not fence
        m = None if fence else re.match(r'^#+ (.*)', line)
        if m:
            slug = re.sub(r'[^\w\- ]', '', m.group(1).strip().lower())
            slug = slug.replace(' ', '-')
            n = seen.get(slug, 0)
            seen[slug] = n + 1
            found.add(slug if n == 0 else '%s-%d' % (slug, n))
    return found


def broken_links(root, doc):
    """The relative links of doc that name no file or no heading."""
    text = open(os.path.join(root, doc), encoding='utf-8').read()
    text = re.sub(r'^ *```.*?^ *```$', '', text, flags=re.S | re.M)
    bad = []
    for target in re.findall(r'\]\(([^)\s]+)\)', text):
        if re.match(r'^[a-z]+:', target):
            continue
        path, _, anchor = target.partition('#')
        full = os.path.normpath(os.path.join(root, os.path.dirname(doc),
                                             path)) if path else \
            os.path.join(root, doc)
        if not os.path.exists(full):
            bad.append(target + ': no such file')
        elif anchor and (not full.endswith('.md') or
                         anchor not in anchors(full)):
            bad.append(target + ': no such heading')
    return '\n'.join(bad) or None


def run(cmd, cwd, env, stdin=None):
    return subprocess.run(cmd, cwd=cwd, env=env, input=stdin,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, timeout=120)


class Runner:
    def __init__(self, args):
        self.args = args
        # The compiler as meson runs it (ccache and all).
        self.cc = shlex.split(args.cc)
        self.scratch = os.path.abspath(args.scratch)
        shutil.rmtree(self.scratch, ignore_errors=True)
        os.makedirs(self.scratch)
        os.symlink(os.path.join(args.source_root, 'data'),
                   os.path.join(self.scratch, 'data'))
        self.env = dict(os.environ)
        self.env['PATH'] = (os.path.dirname(os.path.abspath(args.tool)) +
                            os.pathsep + self.env.get('PATH', ''))
        pc_dir = os.path.join(args.build_root, 'meson-uninstalled')
        self.env['PKG_CONFIG_PATH'] = pc_dir
        got = subprocess.run([args.pkg_config, '--cflags', '--libs', 'twigz'],
                             env=self.env, stdout=subprocess.PIPE, text=True,
                             check=True)
        self.flags = got.stdout.split()
        # The uninstalled library lives in the build tree: link it with an
        # rpath, as an installed one outside the loader's path needs too.
        libdirs = [f[2:] for f in self.flags if f.startswith('-L')]
        self.flags += ['-Wl,-rpath,' + d for d in libdirs]
        # Programs the transcripts build as the docs say, without an
        # rpath, find it as an installed one after ldconfig.
        self.env['LD_LIBRARY_PATH'] = os.pathsep.join(libdirs)
        if args.sanitize and args.sanitize != 'none':
            self.flags = ['-fsanitize=' + args.sanitize] + self.flags
            # The transcripts' `cc` must link the sanitized library with
            # the sanitizers too: a cc first on PATH that adds them.
            bin_dir = os.path.join(self.scratch, 'sanitize-bin')
            os.makedirs(bin_dir)
            wrapper = os.path.join(bin_dir, 'cc')
            with open(wrapper, 'w', encoding='utf-8') as f:
                # Every program of the command by its full path: a bare
                # `cc` would find this script again.
                words = [w if w.startswith('-') else shutil.which(w) or w
                         for w in self.cc]
                f.write('#!/bin/sh\nexec %s -fsanitize=%s "$@"\n' %
                        (' '.join(shlex.quote(w) for w in words),
                         args.sanitize))
            os.chmod(wrapper, 0o755)
            self.env['PATH'] = bin_dir + os.pathsep + self.env['PATH']
        for name, cmd in (('demo.twz', ['build', 'data/demo.map']),
                          ('city.twz', ['build', 'data/city.gr', '--coords',
                                        'data/city.co']),
                          ('rooms.twz', ['build', 'data/rooms.obj']),
                          ('world.twz', ['build', 'data/demo.map',
                                         '--chunk', '4K'])):
            subprocess.run([args.tool] + cmd + ['-o', name, '--quiet'],
                           cwd=self.scratch, check=True)
        self.count = 0

    def compile_and_run(self, name, source, argv):
        path = os.path.join(self.scratch, name)
        with open(path, 'w', encoding='utf-8') as f:
            f.write(source)
        exe = path[:-2] if path.endswith('.c') else path + '.bin'
        got = run(self.cc + ['-std=c11', '-Wall', '-Wextra', '-Werror',
                   '-o', exe, path] + self.flags, self.scratch, self.env)
        if got.returncode != 0:
            return 'does not compile:\n' + got.stdout
        got = run([exe] + argv, self.scratch, self.env)
        if got.returncode != 0:
            return 'exit status %d:\n%s' % (got.returncode, got.stdout)
        return None

    def fragment(self, wrapper, text, where):
        tpl = open(os.path.join(self.args.source_root, 'tests',
                                'docs_samples', wrapper + '.c'),
                   encoding='utf-8').read()
        if '/* SAMPLE */' not in tpl:
            return 'wrapper %s.c has no /* SAMPLE */ line' % wrapper
        self.count += 1
        # #line keeps the compiler's messages on the document's lines.
        before, after = tpl.split('/* SAMPLE */', 1)
        doc, line = where.rsplit(':', 1)
        source = (before + '\n#line %d "%s"\n' % (int(line) + 1, doc) + text +
                  '#line %d "%s.c"\n' % (before.count('\n') + 1, wrapper) +
                  after)
        return self.compile_and_run('fragment%d.c' % self.count, source, [])

    def transcript(self, text):
        command = None
        expected = []
        pairs = []
        for line in text.rstrip('\n').split('\n'):
            if line.startswith('$ '):
                if command is not None:
                    pairs.append((command, expected))
                command, expected = line[2:], []
            elif command is None:
                return 'output before the first $ line: ' + line
            else:
                expected.append(line)
        if command is not None:
            pairs.append((command, expected))
        for command, expected in pairs:
            got = run(['sh', '-c', command], self.scratch, self.env)
            lines = got.stdout.rstrip('\n').split('\n') if got.stdout else []
            if lines != expected:
                return ('`%s` printed:\n%s\nnot:\n%s' %
                        (command, '\n'.join(lines), '\n'.join(expected)))
        return None

    def sample(self, path, line, lang, marker, text):
        kind, words, mark_line = marker
        where = '%s:%d' % (path, line)
        if kind == 'program' and lang == 'c' and words:
            return self.compile_and_run(words[0], text, words[1:])
        if kind == 'fragment' and lang == 'c' and len(words) == 1:
            return self.fragment(words[0], text, where)
        if kind == 'sh' and lang == 'sh':
            got = run(['sh', '-eu'], self.scratch, self.env, stdin=text)
            if got.returncode != 0:
                return 'exit status %d:\n%s' % (got.returncode, got.stdout)
            return None
        if kind == 'transcript':
            return self.transcript(text)
        return 'line %d: unknown sample marker for a ```%s block' % (
            mark_line, lang)


def main():
    parser = argparse.ArgumentParser()
    for name in ('source-root', 'build-root', 'tool', 'cc', 'pkg-config',
                 'scratch'):
        parser.add_argument('--' + name, required=True)
    parser.add_argument('--sanitize', default='none')
    args = parser.parse_args()
    for name in ('source_root', 'build_root', 'tool'):
        setattr(args, name, os.path.abspath(getattr(args, name)))
    root = args.source_root
    docs = ['README.md'] + sorted(
        os.path.relpath(p, root) for p in glob.glob(os.path.join(root, 'docs',
                                                                 '*.md')))
    runner = Runner(args)
    results = []
    for doc in docs:
        results.append(('%s links' % doc, broken_links(root, doc)))
        for line, lang, marker, text in blocks(os.path.join(root, doc)):
            if marker is None:
                if lang == 'c':
                    results.append(('%s:%d' % (doc, line),
                                    'a ```c block without a '
                                    '<!-- sample: ... --> line'))
                continue
            results.append(('%s:%d %s' % (doc, line, marker[0]),
                            runner.sample(doc, line, lang, marker, text)))
    print('1..%d' % len(results))
    failed = 0
    for n, (name, problem) in enumerate(results, 1):
        if problem is None:
            print('ok %d %s' % (n, name))
        else:
            failed += 1
            print('not ok %d %s' % (n, name))
            for line in problem.rstrip('\n').split('\n'):
                print('# ' + line)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
