// Package wiring connects the packages that judge and change a vault to
// the records they do not own: the index and the git layer. pkg/audit
// judges the state other commands leave (audit.State) and pkg/consolidate
// commits a batch through the commit it is handed (consolidate.Commit);
// neither imports pkg/index or pkg/history, so neither links bleve or
// go-git. What the commands that audit or consolidate share of that
// wiring (mem audit and mem consolidate, the MCP tool, the review page)
// is here, once.
package wiring
