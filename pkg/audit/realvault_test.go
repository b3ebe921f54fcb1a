package audit

import (
	"path/filepath"
	"testing"

	"github.com/mem-md/mem/internal/vaulttest"
	"github.com/mem-md/mem/pkg/vault"
)

// The OKF reference bundles and the mdcode catalog (pkg/lint/testdata/okf,
// Apache-2.0) audit cleanly: every concept counted by its own type, none
// a memory missing valid_at, no broken file, no rule broken; only the
// commit and backup checks fail, as the copies were never committed.
func TestOKFBundlesAudit(t *testing.T) {
	t.Parallel()
	for dir, want := range map[string]map[string]int{
		"okf/bundles/acme_retail":    {"Metric": 3, "Attested Computation": 2, "Policy": 2, "BigQuery Table": 1, "Skill": 1},
		"okf/bundles/crypto_bitcoin": {"BigQuery Table": 4, "Reference": 4, "BigQuery Dataset": 1},
		"okf/bundles/ga4":            {"Reference": 7, "BigQuery Dataset": 1, "BigQuery Table": 1},
		"okf/bundles/stackoverflow":  {"BigQuery Table": 16, "Reference": 9, "BigQuery Dataset": 1},
	} {
		root := t.TempDir()
		vaulttest.Copy(t, filepath.Join("../lint/testdata/okf", dir), root)
		vaulttest.Write(t, root, vault.ConfigFile, "")
		v, err := vault.Open(root)
		if err != nil {
			t.Fatal(err)
		}
		r, err := Run(v, Options{Now: now})
		if err != nil {
			t.Fatal(err)
		}
		for typ, n := range want {
			if r.OtherTypes[typ] != n {
				t.Errorf("%s: %d %s, want %d (all: %v)", dir, r.OtherTypes[typ], typ, n, r.OtherTypes)
			}
		}
		if r.Memories != 0 || r.ValidAt.Total != 0 || len(r.Broken) != 0 || len(r.Rules) != 0 || len(r.ImportClusters) != 0 {
			t.Errorf("%s: counts %+v, valid_at %+v, broken %v, rules %v", dir, r.Counts, r.ValidAt, r.Broken, r.Rules)
		}
		for _, f := range r.Findings {
			if f.Check != "max_commit_age_hours" && f.Check != "max_backup_age_hours" {
				t.Errorf("%s: %s: %s", dir, f.Check, f.Message)
			}
		}
	}
}
