"""What goes into the next repair prompt, as a decision (PYTHALAB-MERA's retrieval controller).

- `structure`: node kinds of a text from a real parser (pglast for PL/pgSQL and SQL, `ast` for
  Python), their similarity, and skills taken from accepted repairs (the changed subtree, before →
  after, keyed by node kinds);
- `arms`: the retrieval arms (no context, failure-matched experiences, structurally matched ones,
  skills, a mix), each a way to fill the prompt's memory section;
- `linucb`: the contextual bandit over a compact, fingerprinted context key;
- `reward`: the verification-shaped, bounded reward;
- `controller`: one object the agent loop asks per attempt and tells the outcome, with delayed
  credit across an episode (eligibility traces) and its state persisted beside the knowledge base.
"""
