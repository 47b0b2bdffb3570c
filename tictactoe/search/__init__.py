"""The searches: the perfect solver and its pairing test, the deepening search and its
evaluation, the analysis that picks among them within a budget, and the levels of play.
"""
