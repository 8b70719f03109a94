"""Documents and helpers the chunking test files share: a Sphinx page, a README, a Python
module, and chunking with a word count as the tokenizer."""

from collections.abc import Callable

from openguru.sources.chunking import Chunk, chunk_documents
from openguru.sources.loaders.base import Document

PAGE = "https://docs.example.org/3/reference/compound_stmts.html"
REPO_FILE = "https://github.com/acme/widgets/blob/main/src/widgets/core.py"

SPHINX_PAGE = """
<div class="body" role="main">
<section id="compound-statements">
<h1>8. Compound statements<a class="headerlink" href="#compound-statements" title="Link">¶</a></h1>
<p>Compound statements contain (groups of) other statements; they affect or control the
   execution of those other statements in some way.</p>
<section id="the-if-statement">
<h2>8.1. The <code class="xref">if</code> statement<a class="headerlink" href="#the-if-statement">¶</a></h2>
<p>The <a class="reference internal" href="#if"><code>if</code></a> statement is used for
   conditional execution:</p>
<div class="highlight-none notranslate"><div class="highlight"><pre><span></span>if_stmt ::=  "if" assignment_expression ":" suite
             ("elif" assignment_expression ":" suite)*
</pre></div></div>
<ul><li><p>It selects exactly one of the suites.</p></li><li><p>Evaluation is lazy.</p></li></ul>
</section>
<section id="the-for-statement">
<h2>8.3. The <code>for</code> statement<a class="headerlink" href="#the-for-statement">¶</a></h2>
<p>The for statement is used to iterate over the elements of a sequence (such as a string,
   tuple or list) or other iterable object.</p>
<table><thead><tr><th>Keyword</th><th>Meaning</th></tr></thead>
<tbody><tr><td>break</td><td>leave the loop early</td></tr></tbody></table>
<h3 id="loop-else">Loop else clauses</h3>
<p>A break statement executed in the first suite terminates the loop without executing the
   else clause's suite.</p>
</section>
<section id="function-definitions">
<h2>8.7. Function definitions<a class="headerlink" href="#function-definitions">¶</a></h2>
<p>A function definition defines a user-defined function object.</p>
<dl class="py function">
<dt class="sig sig-object py" id="functools.wraps"><span class="sig-name">wraps</span>(<em>wrapped</em>)<a class="headerlink" href="#functools.wraps">¶</a></dt>
<dd><p>Convenience decorator for invoking update_wrapper() when defining a wrapper function.</p></dd>
</dl>
<p>Default parameter values are evaluated from left to right when the definition runs.</p>
</section>
<h2>No anchor here</h2>
<p>Text below a heading that has neither an id nor a permalink of its own.</p>
</section>
</div>
"""

MARKDOWN = """Widgets make dashboards pleasant to build and maintain for everyone.

# Widgets

The widgets library renders dashboards from plain configuration files.

## Install `widgets` (Python 3.11+)

```bash
# this comment is not a heading
pip install widgets
```

Usage
-----

Import the package and call render() with a configuration mapping.

## Install `widgets` (Python 3.11+)

The same heading again, to check that GitHub numbers repeated anchors.
"""


def words(text: str) -> int:
    return len(text.split())


def chunks_of(
    *documents: Document,
    size: int = 60,
    overlap: int = 8,
    min_chars: int = 20,
    count: Callable[[str], int] = words,
) -> list[Chunk]:
    return list(
        chunk_documents(
            documents,
            size_tokens=size,
            overlap_tokens=overlap,
            min_chars=min_chars,
            count_tokens=count,
        )
    )


def by_anchor(chunks: list[Chunk]) -> dict[str, Chunk]:
    return {chunk.metadata["anchor"]: chunk for chunk in chunks}


def long_prose(sentences: int) -> str:
    return " ".join(
        f"Sentence number {n} talks about topic{n} at some length." for n in range(sentences)
    )


def python_module(functions: int) -> str:
    parts = ['"""Core widgets."""\n\nimport math\n']
    for n in range(functions):
        parts.append(
            f"\n\ndef area_{n}(radius: float) -> float:\n"
            f'    """Area of circle number {n}."""\n'
            f"    scaled = radius * {n + 1}\n"
            f"    return math.pi * scaled * scaled\n"
        )
    return "".join(parts)
