package render

import (
	"testing"

	"go.yaml.in/yaml/v3"
)

// kyvernoBase is what the base's kyverno values (values-3.6.0.yaml, at
// 2026.01 and on main) set for the admission controller: pods scaled by a
// HorizontalPodAutoscaler, and a PodDisruptionBudget keeping 2 of them up.
var kyvernoBase = struct {
	autoscaling  bool
	minAvailable int
}{true, 2}

// TestKyvernoAdmissionPods: where a config sets the admission controller's
// pod count, the chart (kyverno 3.6.0) runs that many, and a node drain may
// evict one of them. Under the base's autoscaler the chart writes no
// replicas (templates/admission-controller/deployment.yaml), and the base's
// budget, which fewer than 3 pods never satisfy, would hold every drain.
func TestKyvernoAdmissionPods(t *testing.T) {
	n := 0
	for _, p := range corpusPlans(t) {
		f, ok := p.File("services/kyverno/helm-values/override-values.yaml")
		if !ok {
			continue
		}
		var values map[string]any
		if err := yaml.Unmarshal(f.Data, &values); err != nil {
			t.Fatal(err)
		}
		ac, _ := values["admissionController"].(map[string]any)
		replicas, ok := ac["replicas"].(int)
		if !ok {
			continue
		}
		n++
		autoscaling := kyvernoBase.autoscaling
		if a, ok := ac["autoscaling"].(map[string]any); ok {
			autoscaling, _ = a["enabled"].(bool)
		}
		if autoscaling {
			t.Errorf("%s: the admission controller's autoscaler stays on, and the chart ignores replicas: %d", p.Config, replicas)
		}
		// kyverno.pdb.spec (templates/_helpers/_pdb.tpl): maxUnavailable when
		// set, else minAvailable, 1 when unset; a null drops the base's.
		minAvailable, maxUnavailable := kyvernoBase.minAvailable, 0
		if b, ok := ac["podDisruptionBudget"].(map[string]any); ok {
			if v, set := b["minAvailable"]; set {
				minAvailable, _ = v.(int)
			}
			maxUnavailable, _ = b["maxUnavailable"].(int)
		}
		evictable := maxUnavailable
		switch {
		case minAvailable > 0 && maxUnavailable > 0:
			t.Errorf("%s: the admission controller's budget sets minAvailable and maxUnavailable, which the chart refuses", p.Config)
		case maxUnavailable == 0:
			evictable = replicas - max(minAvailable, 1)
		}
		if evictable < 1 {
			t.Errorf("%s: %d admission controller pods under a budget that lets none go (minAvailable %d, maxUnavailable %d): a node drain would wait forever", p.Config, replicas, minAvailable, maxUnavailable)
		}
	}
	if n == 0 {
		t.Error("no corpus plan sets the admission controller's pod count")
	}
}

// TestTempoIngestersCanBeDrained: the PodDisruptionBudget tempo-distributed
// 1.55.0 gives more than one ingester (templates/ingester/
// poddisruptionbudget-ingester.yaml) lets one of them go. Its
// maxUnavailable is ingester.maxUnavailable when set, else the replicas
// less the write quorum (replication_factor/2 + 1): none for two
// ingesters replicating each trace twice.
func TestTempoIngestersCanBeDrained(t *testing.T) {
	seen := map[int]bool{}
	for _, p := range corpusPlans(t) {
		f, ok := p.File("services/tempo/helm-values/override-values.yaml")
		if !ok {
			continue
		}
		var values struct {
			Ingester struct {
				Replicas       int  `yaml:"replicas"`
				MaxUnavailable *int `yaml:"maxUnavailable"`
				Config         struct {
					ReplicationFactor int `yaml:"replication_factor"`
				} `yaml:"config"`
			} `yaml:"ingester"`
		}
		if err := yaml.Unmarshal(f.Data, &values); err != nil {
			t.Fatal(err)
		}
		in := values.Ingester
		if in.Replicas < 2 {
			continue // no budget
		}
		seen[in.Replicas] = true
		evictable := in.Replicas - (in.Config.ReplicationFactor/2 + 1)
		if in.MaxUnavailable != nil && *in.MaxUnavailable != 0 {
			evictable = *in.MaxUnavailable
		}
		if evictable < 1 {
			t.Errorf("%s: %d ingesters replicating each trace %d times, under a budget that lets none go: a node drain would wait forever", p.Config, in.Replicas, in.Config.ReplicationFactor)
		}
	}
	if !seen[2] {
		t.Error("no corpus plan runs two ingesters")
	}
}
