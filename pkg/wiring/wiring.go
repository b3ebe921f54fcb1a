// Package wiring connects the packages that judge and change a vault to
// the records they do not own: the index and the git layer. pkg/audit
// judges the state other commands leave (audit.State) and pkg/consolidate
// commits a batch through the commit it is handed (consolidate.Commit);
// neither imports pkg/index or pkg/history, so neither links bleve or
// go-git. What the commands that audit or consolidate share of that
// wiring (mem audit and mem consolidate, the MCP tool, the review page)
// is here, once. Its tests are cmd/mem's testscripts (audit_state,
// clean_consolidate, week_consolidate_safe): a test binary of its own
// would link bleve and go-git again, the link the split saves.
package wiring
