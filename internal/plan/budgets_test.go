package plan

import "testing"

// kyvernoController is what the base's kyverno values (values-3.6.0.yaml,
// at 2026.01 and on main) set for one of the chart's controllers: whether
// a HorizontalPodAutoscaler scales its pods (from minReplicas), whether its
// PodDisruptionBudget is on, and the pods the budget keeps up. None sets
// replicas, which the chart then leaves to the Deployment's default of 1.
type kyvernoController struct {
	autoscaling  bool
	minReplicas  int
	budget       bool
	minAvailable int
}

// kyvernoBase are the base's settings, by the values key of the controller.
var kyvernoBase = map[string]kyvernoController{
	"admissionController":  {true, 3, true, 2},
	"backgroundController": {false, 0, true, 1},
	"cleanupController":    {false, 0, true, 1},
	"reportsController":    {false, 0, true, 1},
}

// TestKyvernoBudgetsLetDrainsGoOn: in every plan that enables kyverno, a
// node drain may evict a pod of each of kyverno 3.6.0's controllers, and a
// config's admission_replicas is the admission controller's pod count.
// The chart writes no replicas under an autoscaler
// (templates/admission-controller/deployment.yaml); it makes a budget when
// it is on or above one pod, of maxUnavailable when set, else minAvailable,
// 1 when unset (templates/_helpers/_pdb.tpl); a null drops the base's value.
func TestKyvernoBudgetsLetDrainsGoOn(t *testing.T) {
	n, counted := 0, 0
	for p, values := range corpusValues[map[string]any](t, "kyverno") {
		n++
		for key, base := range kyvernoBase {
			c, _ := (*values)[key].(map[string]any)
			replicas, set := c["replicas"].(int)
			autoscaling := base.autoscaling
			if a, ok := c["autoscaling"].(map[string]any); ok {
				autoscaling, _ = a["enabled"].(bool)
			}
			pods := max(replicas, 1)
			switch {
			case set && autoscaling:
				t.Errorf("%s: %s's autoscaler stays on, and the chart ignores replicas: %d", p.Config, key, replicas)
			case autoscaling:
				pods = base.minReplicas
			case set:
				counted++
			}
			budget, minAvailable, maxUnavailable := base.budget, base.minAvailable, 0
			if b, ok := c["podDisruptionBudget"].(map[string]any); ok {
				if v, ok := b["enabled"]; ok {
					budget, _ = v.(bool)
				}
				if v, ok := b["minAvailable"]; ok {
					minAvailable, _ = v.(int)
				}
				maxUnavailable, _ = b["maxUnavailable"].(int)
			}
			if !budget && replicas <= 1 {
				continue
			}
			evictable := maxUnavailable
			switch {
			case minAvailable > 0 && maxUnavailable > 0:
				t.Errorf("%s: %s's budget sets minAvailable and maxUnavailable, which the chart refuses", p.Config, key)
			case maxUnavailable == 0:
				evictable = pods - max(minAvailable, 1)
			}
			if evictable < 1 {
				t.Errorf("%s: %d pods of kyverno's %s under a budget that lets none go (minAvailable %d, maxUnavailable %d): a node drain would wait forever", p.Config, pods, key, minAvailable, maxUnavailable)
			}
		}
	}
	if n == 0 || counted == 0 {
		t.Errorf("%d corpus plans enable kyverno, %d set the admission controller's pod count: the test needs both", n, counted)
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
	type values struct {
		Ingester struct {
			Replicas       int  `yaml:"replicas"`
			MaxUnavailable *int `yaml:"maxUnavailable"`
			Config         struct {
				ReplicationFactor int `yaml:"replication_factor"`
			} `yaml:"config"`
		} `yaml:"ingester"`
	}
	for p, v := range corpusValues[values](t, "tempo") {
		in := v.Ingester
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
