"""Peer for `npm run bench:extract`: trafilatura.extract(html, include_comments=False) on every
page of the extraction set. Reads a directory of <id>.html.gz, writes {"texts": {id: text},
"seconds": extraction time} as JSON to the path given."""
import gzip, json, os, sys, time

import trafilatura

pages_dir, out_path = sys.argv[1], sys.argv[2]
texts, seconds = {}, 0.0
for name in sorted(os.listdir(pages_dir)):
    if not name.endswith('.html.gz'):
        continue
    html = gzip.open(os.path.join(pages_dir, name)).read().decode('utf-8')
    started = time.perf_counter()
    texts[name[: -len('.html.gz')]] = trafilatura.extract(html, include_comments=False) or ''
    seconds += time.perf_counter() - started
json.dump({'texts': texts, 'seconds': seconds, 'version': trafilatura.__version__}, open(out_path, 'w'))
