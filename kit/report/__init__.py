"""Reports of runs: a terminal table now; JSON, JUnit and Markdown from the same results."""
