package frontmatter

// ParseBoth parses data on the fast path (accepted is false when it declines
// the file) and on yaml.v3 alone, for the differential tests.
func ParseBoth(data []byte) (fast *Document, accepted bool, slow *Document, slowErr error) {
	slow, slowErr = parse(data, parseYAML)
	fast, _ = parse(data, func(doc *Document, yamlText string) (*Document, error) {
		accepted = parseFast(doc, yamlText)
		return doc, nil
	})
	return fast, accepted, slow, slowErr
}
