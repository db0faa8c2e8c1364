package plan

import (
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	generated "github.com/opencenter-dev/opencenter/zz_generated"
)

// TestBudgetsLetDrainsGoOn: in every corpus plan, a node drain may evict a
// pod of each workload whose chart makes a PodDisruptionBudget (the
// descriptors' charts[].budgets), as the chart counts the workload's pods
// and the pods its budget keeps up from the base's values and the
// overlay's. The pods are the replicas (1 when unset), or the
// autoscaler's minimum while one runs, which ignores replicas; the budget
// is its switch's, or there for more than one pod; it lets maxUnavailable
// go when set, else the pods less minAvailable (1 when unset), or less a
// write quorum (replication factor / 2 + 1) where the chart keeps one up.
// Every chart with budgets has a plan that sets a workload's replicas.
func TestBudgetsLetDrainsGoOn(t *testing.T) {
	counted := map[string]bool{}
	n := 0
	for _, p := range corpusPlans(t) {
		for _, u := range generated.Units {
			for _, ch := range u.Charts {
				if len(ch.Budgets) == 0 {
					continue
				}
				n++
				f, ok := p.File(ch.Values)
				if !ok {
					continue
				}
				var values map[string]any
				if err := yaml.Unmarshal(f.Data, &values); err != nil {
					t.Fatalf("%s: %s: %v", p.Config, ch.Values, err)
				}
				at := func(path string) (any, bool) {
					if path == "" {
						return nil, false
					}
					vs := valuesAt(values, strings.Split(path, "."))
					if len(vs) == 0 {
						return nil, false
					}
					return vs[0], true
				}
				for _, b := range ch.Budgets {
					replicas, set := 0, false
					if v, ok := at(b.Replicas); ok {
						replicas, set = v.(int)
					}
					autoscaling := b.AutoscalingBase
					if v, ok := at(b.Autoscaling); ok {
						autoscaling, _ = v.(bool)
					}
					pods := max(replicas, 1)
					switch {
					case set && autoscaling:
						t.Errorf("%s: %s's autoscaler stays on, and chart %s ignores replicas: %d (%s)", p.Config, b.Workload, ch.Chart, replicas, b.Read)
					case autoscaling:
						pods = b.MinReplicas
					case set:
						counted[u.Name+" "+ch.Values] = true
					}
					budget := pods > 1
					if b.Enabled != "" {
						budget = b.EnabledBase
						if v, ok := at(b.Enabled); ok {
							budget, _ = v.(bool)
						}
						budget = budget || replicas > 1
					}
					if !budget {
						continue
					}
					minAvailable, maxUnavailable := b.MinAvailableBase, 0
					if v, ok := at(b.MinAvailable); ok {
						minAvailable, _ = v.(int)
					}
					if v, ok := at(b.MaxUnavailable); ok {
						maxUnavailable, _ = v.(int)
					}
					evictable := maxUnavailable
					switch {
					case minAvailable > 0 && maxUnavailable > 0:
						t.Errorf("%s: %s's budget sets minAvailable and maxUnavailable, which chart %s refuses (%s)", p.Config, b.Workload, ch.Chart, b.Read)
					case maxUnavailable > 0:
					case b.Quorum != "":
						factor := 0
						if v, ok := at(b.Quorum); ok {
							factor, _ = v.(int)
						}
						evictable = pods - (factor/2 + 1)
					default:
						evictable = pods - max(minAvailable, 1)
					}
					if evictable < 1 {
						t.Errorf("%s: %d pods of %s's %s under a budget that lets none go (minAvailable %d, maxUnavailable %d): a node drain would wait forever (%s)", p.Config, pods, u.Name, b.Workload, minAvailable, maxUnavailable, b.Read)
					}
				}
			}
		}
	}
	if n == 0 {
		t.Error("no chart of the catalog makes a budget: the test checked nothing")
	}
	for _, u := range generated.Units {
		for _, ch := range u.Charts {
			if len(ch.Budgets) > 0 && !counted[u.Name+" "+ch.Values] {
				t.Errorf("no corpus plan sets the replicas of a workload of chart %s (unit %s) without an autoscaler: its budgets are not checked", ch.Chart, u.Name)
			}
		}
	}
}
