package plan

import (
	"path"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/opencenter-dev/opencenter/internal/catalog"
	generated "github.com/opencenter-dev/opencenter/zz_generated"
)

// chartRead is what a chart, at the version its facts were read off,
// reads of the values a unit sets: a value whose path none of reads
// starts (or equals) does nothing, or worse.
type chartRead struct {
	chart, version string
	reads          []string // values paths, or parents the chart passes on whole
}

// chartGate is a switch a chart reads a part of its values under: set
// anything under the part, and the switch, as the base's values and ours
// merge, must be open.
type chartGate struct {
	under, gate string
	open        bool   // the switch's value under which the chart reads the part
	base        bool   // the switch in the base's values
	source      string // the chart's template and the base's values file
}

// chartReads were read off the charts' sources at the versions the base
// pins (templates and helpers at the chart's tag). A chart at another
// version in a base release, or a new value, needs reading the chart again.
// A unit of several charts has a record for each values file, keyed
// unit/file.
var chartReads = map[string]chartRead{
	// rackerlabs/alert-proxy helm/ on main (86b254a), which the base's
	// GitRepository follows: templates/deployment.yaml reads each setting
	// from secrets.<name>.name and .key.
	"alert-proxy":  {"./helm", "", []string{"secrets"}},
	"cert-manager": {"cert-manager", "v1.18.2", []string{"config", "crds.enabled", "extraArgs"}},
	"harbor": {"harbor", "1.17.2", []string{"database.internal.password", "existingSecretAdminPassword", "existingSecretAdminPasswordKey", "existingSecretSecretKey", "expose.ingress.hosts.core",
		"expose.tls.certSource", "expose.tls.enabled", "expose.tls.secret.secretName", "externalURL",
		"persistence.imageChartStorage.disableredirect", "persistence.imageChartStorage.type", "persistence.imageChartStorage.s3",
		"persistence.imageChartStorage.swift", "persistence.persistentVolumeClaim.database.storageClass",
		"persistence.persistentVolumeClaim.jobservice.jobLog.storageClass", "persistence.persistentVolumeClaim.redis.storageClass",
		"persistence.persistentVolumeClaim.trivy.storageClass", "persistence.persistentVolumeClaim.registry", "registry.credentials.password", "trivy.enabled"}},
	"headlamp": {"headlamp", "0.35.0", []string{"config.inCluster", "config.oidc.callbackURL", "config.oidc.externalSecret.enabled",
		"config.oidc.externalSecret.name", "config.oidc.secret.create"}},
	// istio/istio manifests/charts at 1.28.3: templates/zzz_profile.yaml
	// merges files/profile-<profile>.yaml under the values (and fails on a
	// name without a file); the gateway's templates/service.yaml reads
	// service.type.
	"istio/istio-base-values.yaml":    {"base", "1.28.3", []string{"profile"}},
	"istio/istiod-values.yaml":        {"istiod", "1.28.3", []string{"profile"}},
	"istio/istio-gateway-values.yaml": {"gateway", "1.28.3", []string{"service.type"}},
	"kafka-cluster":                   {"strimzi-kafka-operator", "0.50.0", []string{"watchAnyNamespace"}},
	"kube-prometheus-stack": {"kube-prometheus-stack", "77.6.0", []string{"alertmanager.alertmanagerSpec.externalUrl", "alertmanager.config",
		"alertmanager.alertmanagerSpec.storage", "grafana.admin.existingSecret", "grafana.admin.passwordKey", "grafana.admin.userKey",
		"grafana.grafana.ini", "grafana.persistence.enabled", "grafana.persistence.size", "grafana.persistence.storageClassName",
		"prometheus.prometheusSpec.remoteWrite", "prometheus.prometheusSpec.replicas", "prometheus.prometheusSpec.retention",
		"prometheus.prometheusSpec.storageSpec"}},
	"kyverno": {"kyverno", "3.6.0", []string{"admissionController.autoscaling.enabled", "admissionController.podDisruptionBudget.maxUnavailable",
		"admissionController.podDisruptionBudget.minAvailable", "admissionController.replicas", "backgroundController.podDisruptionBudget.enabled",
		"cleanupController.podDisruptionBudget.enabled", "config.resourceFiltersIncludeNamespaces", "reportsController.podDisruptionBudget.enabled"}},
	"loki": {"loki", "6.45.2", []string{"backend.persistence.size", "backend.persistence.storageClass", "backend.replicas", "deploymentMode",
		"global.extraArgs", "global.extraEnvFrom", "loki.commonConfig", "loki.compactor", "loki.limits_config", "loki.schemaConfig",
		"loki.storage.bucketNames.chunks", "loki.storage.bucketNames.ruler", "loki.storage.s3", "loki.storage.swift", "loki.storage.type",
		"read.replicas", "singleBinary", "write.persistence.size", "write.persistence.storageClass", "write.replicas"}},
	"longhorn": {"longhorn", "1.11.0", []string{"defaultSettings.defaultDataPath", "defaultSettings.defaultReplicaCount",
		"persistence.defaultClass", "persistence.defaultClassReplicaCount"}},
	"mimir": {"mimir-distributed", "6.0.3", []string{"compactor.persistentVolume.size", "compactor.persistentVolume.storageClass",
		"global.extraEnvFrom", "ingester.persistentVolume.size", "ingester.persistentVolume.storageClass", "ingester.replicas",
		"ingester.zoneAwareReplication.enabled", "mimir.structuredConfig", "minio", "store_gateway.persistentVolume.size",
		"store_gateway.persistentVolume.storageClass", "store_gateway.replicas", "store_gateway.zoneAwareReplication.enabled"}},
	"openstack-ccm": {"openstack-cloud-controller-manager", "2.33.1", []string{"cluster.name", "secret.create", "secret.enabled", "secret.name"}},
	"openstack-csi": {"openstack-cinder-csi", "2.33.1", []string{"clusterID", "secret.create", "secret.enabled", "secret.name",
		"storageClass.custom", "storageClass.enabled"}},
	"opentelemetry-kube-stack": {"opentelemetry-kube-stack", "0.11.1", []string{"clusterName", "collectors.daemon.config",
		"collectors.daemon.presets.hostMetrics.enabled", "collectors.daemon.presets.logsCollection.enabled",
		"crds.installPrometheus", // Chart.yaml: prometheus-crds' condition
		"instrumentation.enabled", "instrumentation.exporter.endpoint",
		"instrumentation.sampler",
		// its subchart opentelemetry-operator 0.97.1: templates/certmanager.yaml and
		// admission-webhooks/operator-webhook.yaml
		"opentelemetry-operator.admissionWebhooks.autoGenerateCert.certPeriodDays", "opentelemetry-operator.admissionWebhooks.autoGenerateCert.enabled",
		"opentelemetry-operator.admissionWebhooks.certManager.enabled"}},
	"postgres-operator": {"postgres-operator", "1.14.0", []string{"configKubernetes.watched_namespace",
		"configPostgresPodResources.default_cpu_request", "configPostgresPodResources.default_memory_request"}},
	"sealed-secrets": {"sealed-secrets", "2.17.3", []string{"keyrenewperiod"}},
	"tempo": {"tempo-distributed", "1.55.0", []string{"compactor.config.compaction.block_retention", "distributor.replicas",
		"global.extraEnvFrom", "ingester.config.replication_factor", "ingester.maxUnavailable", "ingester.persistence.enabled", "ingester.persistence.size",
		"ingester.persistence.storageClass", "ingester.replicas", "storage.trace.backend", "storage.trace.s3"}},
	"velero": {"velero", "10.1.1", []string{"backupsEnabled", "configuration.backupStorageLocation", "configuration.features",
		"configuration.volumeSnapshotLocation", "credentials.existingSecret", "credentials.useSecret", "schedules.daily.disabled",
		"schedules.daily.schedule", "schedules.daily.template", "schedules.daily.useOwnerReferencesInBackup", "snapshotsEnabled"}},
	"vsphere-csi": {"vsphere-csi", "3.8.1", []string{"global.config.existingSecret", "global.config.storageclass.datastoreurl",
		"global.config.storageclass.default", "global.config.storageclass.enabled", "global.config.storageclass.expansion",
		"global.config.storageclass.name", "global.config.storageclass.reclaimpolicy", "global.config.storageclass.volumebindingmode"}},
}

// chartGates are, by unit, the switches of chartReads' charts (read off the
// same versions) that the base's values close.
var chartGates = map[string][]chartGate{
	"velero": {
		{"configuration.backupStorageLocation", "backupsEnabled", true, false, "velero-10.1.1 templates/backupstoragelocation.yaml; base 2026.01 values-10.1.1.yaml"},
		{"configuration.volumeSnapshotLocation", "snapshotsEnabled", true, false, "velero-10.1.1 templates/volumesnapshotlocation.yaml; base 2026.01 values-10.1.1.yaml"},
	},
	// The base scales the admission controller with a HorizontalPodAutoscaler.
	"kyverno": {
		{"admissionController.replicas", "admissionController.autoscaling.enabled", false, true, "kyverno-3.6.0 templates/admission-controller/deployment.yaml; base 2026.01 and main values-3.6.0.yaml"},
	},
}

// chartRequirement is a value a chart's templates require (Helm's
// `required`: the install fails without it) in every mode the unit
// renders, and that the base's values do not set.
type chartRequirement struct {
	path   string
	source string // the chart's template, and the base's values file
}

// chartRequirements are, by unit, the values chartReads' charts (read off
// the same versions) require whatever else the values say. Each corpus
// plan was installed by Helm (template, client-only) at those versions,
// and these are what it refused.
var chartRequirements = map[string][]chartRequirement{
	// loki.commonStorageConfig, which the config template includes for
	// loki.commonConfig (set by the base's values and ours), requires it
	// before it looks at the storage type, on a volume too
	// (grafana/loki#19655).
	"loki": {{"loki.storage.bucketNames.chunks", "loki-6.45.2 templates/_helpers.tpl line 201; base 2026.01 values-6.45.2.yaml leaves it out"}},
}

// unreadCharts are the units whose chart's reads are not on record, and why.
var unreadCharts = map[string]string{}

// TestChartsReadEveryValue: every value the fixture plans (and the corpus
// variants) set in a unit's helm values, or in a values Secret of the
// unit's (values_from), is one its chart reads, with the
// switch the chart reads it under on, and every base release installs the
// chart at the version chartReads was read off.
func TestChartsReadEveryValue(t *testing.T) {
	for _, r := range generated.BaseReleases {
		for unit, cr := range chartReads {
			if v, ok := r.Charts[cr.chart]; ok && v != cr.version {
				t.Errorf("base release %s installs %s %s, chartReads (unit %s) was read off %s: read the chart again", r.Ref, cr.chart, v, unit, cr.version)
			}
		}
	}
	var docs []*yaml.Node
	var names []string
	for _, name := range fixtureConfigs(t) {
		docs, names = append(docs, plaintextDoc(t, name)), append(names, name)
	}
	for i := range corpusVariants {
		docs, names = append(docs, corpusVariants[i].of(t)), append(names, corpusVariants[i].config+" ("+corpusVariants[i].name+" variant)")
	}
	seen, required := map[string]bool{}, map[string]bool{}
	for i, doc := range docs {
		f := checkedDoc(t, names[i], doc)
		f.Config.OpenCenter.GitOps.OverlayUnits.SOPS.Enabled = false // values files are plaintext either way
		plan, err := Build(f, Options{AllowPlaintextSecrets: true})
		if err != nil {
			t.Fatalf("%s: %v", names[i], err)
		}
		for _, pf := range plan.Files {
			file, data := pf.Path, pf.Data
			dir, _, ok := strings.Cut(file, "/helm-values/")
			if !ok {
				// The values a values_from Secret of the unit's holds.
				dir = path.Dir(file)
				docs := documents(t, file, data)
				if len(docs) != 1 || str(docs[0], "kind") != "Secret" || str(docs[0], "stringData", catalog.ValuesKey) == "" {
					continue
				}
				data = []byte(str(docs[0], "stringData", catalog.ValuesKey))
			}
			unit := path.Base(dir)
			var values map[string]any
			if err := yaml.Unmarshal(data, &values); err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			if _, skip := unreadCharts[unit]; skip || len(values) == 0 {
				continue
			}
			key := unit + "/" + path.Base(file) // a unit of several charts: each values file's
			cr, ok := chartReads[key]
			if !ok {
				key = unit
				cr, ok = chartReads[unit]
			}
			if !ok {
				t.Errorf("%s: no record of what unit %s's chart reads", file, unit)
				continue
			}
			for _, v := range leafPaths(values, "") {
				seen[key] = true
				if !slices.ContainsFunc(cr.reads, func(r string) bool { return v == r || strings.HasPrefix(v, r+".") }) {
					t.Errorf("%s (%s): %s is a value chart %s %s does not read", file, names[i], v, cr.chart, cr.version)
				}
			}
			for _, r := range chartRequirements[key] {
				required[key+" "+r.path] = true
				set := valuesAt(values, strings.Split(r.path, "."))
				if s, _ := firstOf(set).(string); s == "" {
					t.Errorf("%s (%s): %s is not set, and chart %s %s requires it: Helm would refuse the install (%s)", file, names[i], r.path, cr.chart, cr.version, r.source)
				}
			}
			for _, g := range chartGates[unit] {
				set := slices.ContainsFunc(valuesAt(values, strings.Split(g.under, ".")), func(x any) bool { l, isList := x.([]any); return !isList || len(l) > 0 })
				at := g.base
				for _, x := range valuesAt(values, strings.Split(g.gate, ".")) {
					at, _ = x.(bool)
				}
				if set && at != g.open {
					t.Errorf("%s (%s): %s is set, and chart %s %s reads it only when %s is %v (%s)", file, names[i], g.under, cr.chart, cr.version, g.gate, g.open, g.source)
				}
			}
		}
	}
	for key := range chartReads {
		if !seen[key] {
			t.Errorf("no plan sets a value of %s: its record is not checked", key)
		}
	}
	for key, rs := range chartRequirements {
		for _, r := range rs {
			if !required[key+" "+r.path] {
				t.Errorf("no plan renders %s's values: its requirement %s is not checked", key, r.path)
			}
		}
	}
}

// firstOf is the first of values, or nil.
func firstOf(values []any) any {
	if len(values) == 0 {
		return nil
	}
	return values[0]
}

// leafPaths returns the dotted paths of the scalars and lists in v.
func leafPaths(v any, at string) []string {
	m, ok := v.(map[string]any)
	if !ok || len(m) == 0 {
		return []string{at}
	}
	var out []string
	for k, x := range m {
		out = append(out, leafPaths(x, strings.TrimPrefix(at+"."+k, "."))...)
	}
	return out
}
