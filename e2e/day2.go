package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	helmv2 "github.com/fluxcd/helm-controller/api/v2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// day2 disables a service, re-renders and pushes: its objects are pruned
// and its -namespace unit's Namespace stays; then it enables it again.
func (r *clusterRun) day2(ctx context.Context) error {
	out, err := r.opencenter("units", "--config", r.config, "--output", "json")
	if err != nil {
		return err
	}
	var units []struct {
		Name      string   `json:"name"`
		Layer     string   `json:"layer"`
		Requires  []string `json:"requires"`
		FluxUnits []string `json:"flux_units"`
		Active    *bool    `json:"active"`
	}
	if err := json.Unmarshal(out, &units); err != nil {
		return err
	}
	requiredBy := map[string]bool{}
	for _, u := range units {
		if u.Active != nil && *u.Active {
			for _, q := range u.Requires {
				requiredBy[q] = true
			}
		}
	}
	pick := -1
	for _, cand := range []string{"headlamp", "velero", "harbor", "sealed-secrets", "metallb"} {
		for i, u := range units {
			if u.Name == cand && u.Active != nil && *u.Active && !requiredBy[u.Name] && slices.Contains(u.FluxUnits, u.Name+"-namespace") {
				pick = i
				break
			}
		}
		if pick >= 0 {
			break
		}
	}
	if pick < 0 {
		return fmt.Errorf("no unit to disable among headlamp, velero, harbor, sealed-secrets, metallb")
	}
	u := units[pick]
	// What the unit has in the cluster now.
	k := r.c.Kube
	nsUnit, err := k.Get(ctx, "kustomize.toolkit.fluxcd.io/v1", "Kustomization", "flux-system", u.Name+"-namespace")
	if err != nil {
		return err
	}
	var namespaces []string
	for _, e := range inventory(nsUnit) {
		if strings.HasSuffix(e, "__Namespace") {
			namespaces = append(namespaces, strings.Split(e, "_")[1])
		}
	}
	var owned []string // ids of objects the unit's Kustomizations applied, but the Namespace
	for _, fu := range u.FluxUnits {
		ko, err := k.Get(ctx, "kustomize.toolkit.fluxcd.io/v1", "Kustomization", "flux-system", fu)
		if err != nil {
			return err
		}
		for _, e := range inventory(ko) {
			if !strings.HasSuffix(e, "__Namespace") {
				owned = append(owned, e)
			}
		}
	}
	var releases []string // storage namespace/release name
	var standins []string // namespace/name of the stand-in charts' ConfigMaps
	for _, e := range owned {
		parts := strings.Split(e, "_")
		if parts[3] != "HelmRelease" {
			continue
		}
		hr, err := k.Get(ctx, "helm.toolkit.fluxcd.io/v2", "HelmRelease", parts[0], parts[1])
		if err != nil {
			return err
		}
		key, relNS := releaseOf(hr)
		releases = append(releases, key)
		standins = append(standins, relNS+"/"+strings.Split(key, "/")[1]+"-e2e-standin")
	}
	r.logf("%s: day 2: disabling %s (%d objects, namespaces %v, releases %v)", r.name, u.Name, len(owned), namespaces, releases)
	if _, err := r.opencenter("disable", u.Name, "--config", r.config); err != nil {
		return err
	}
	rev, err := r.push("disable " + u.Name)
	if err != nil {
		return err
	}
	if err := r.waitReconciled(ctx, day2Timeout, rev); err != nil {
		return err
	}
	err = waitFor(day2Timeout, 2*time.Second, "pruning "+u.Name, func() error {
		for _, fu := range u.FluxUnits {
			if _, err := k.Get(ctx, "kustomize.toolkit.fluxcd.io/v1", "Kustomization", "flux-system", fu); !IsNotFound(err) {
				return fmt.Errorf("Kustomization %s still there (%v)", fu, err)
			}
		}
		for _, e := range owned {
			if gone, err := r.gone(ctx, e); err != nil || !gone {
				return fmt.Errorf("%s still there (%v)", e, err)
			}
		}
		now, err := Releases(ctx, k)
		if err != nil {
			return err
		}
		for _, rel := range releases {
			if _, ok := now[rel]; ok {
				return fmt.Errorf("Helm release %s still installed", rel)
			}
		}
		for _, cm := range standins {
			ns, name, _ := strings.Cut(cm, "/")
			if _, err := k.Get(ctx, "v1", "ConfigMap", ns, name); !IsNotFound(err) {
				return fmt.Errorf("the stand-in chart's ConfigMap %s still there: Helm did not uninstall (%v)", cm, err)
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, ns := range namespaces {
		o, err := k.Get(ctx, "v1", "Namespace", "", ns)
		if err != nil {
			return fmt.Errorf("Namespace %s of %s-namespace (deletionPolicy Orphan) is gone: %v", ns, u.Name, err)
		}
		if str(o, "metadata", "deletionTimestamp") != "" {
			return fmt.Errorf("Namespace %s of %s-namespace (deletionPolicy Orphan) is being deleted", ns, u.Name)
		}
	}
	r.logf("%s: day 2: %s pruned (%d objects, %d releases), namespaces %v kept", r.name, u.Name, len(owned), len(releases), namespaces)

	if _, err := r.opencenter("enable", u.Name, "--config", r.config); err != nil {
		return err
	}
	if rev, err = r.push("enable " + u.Name); err != nil {
		return err
	}
	if err := r.waitReconciled(ctx, day2Timeout, rev); err != nil {
		return err
	}
	for _, e := range owned {
		if gone, err := r.gone(ctx, e); err != nil || gone {
			return fmt.Errorf("after enabling %s again, %s is not back (%v)", u.Name, e, err)
		}
	}
	now, err := Releases(ctx, k)
	if err != nil {
		return err
	}
	for _, rel := range releases {
		if x, ok := now[rel]; !ok || x.Status != "deployed" {
			return fmt.Errorf("after enabling %s again, Helm release %s is not deployed", u.Name, rel)
		}
	}
	r.res.Day2 = fmt.Sprintf("disabled %s: %d objects and %d Helm releases pruned, Namespace %s kept (Orphan); enabled again: all back, Ready",
		u.Name, len(owned), len(releases), strings.Join(namespaces, ","))
	return nil
}

// push re-renders, commits and pushes the cluster repository, asks Flux
// to fetch it now (as flux reconcile source git does), and returns the
// commit.
func (r *clusterRun) push(message string) (string, error) {
	if err := r.render(); err != nil {
		return "", err
	}
	commit, err := commitTree(r.dir, r.bare, message, "refs/heads/"+r.branch)
	if err != nil {
		return "", err
	}
	err = r.c.Kube.Merge(context.Background(), "source.toolkit.fluxcd.io/v1", "GitRepository", "flux-system", "flux-system",
		map[string]any{"metadata": map[string]any{"annotations": map[string]any{"reconcile.fluxcd.io/requestedAt": time.Now().Format(time.RFC3339Nano)}}})
	return commit, err
}

// inventory lists a Kustomization's inventory entry ids
// (namespace_name_group_Kind).
func inventory(k Obj) []string {
	var out []string
	entries, _ := field(k, "status", "inventory", "entries").([]any)
	for _, e := range entries {
		m, _ := e.(map[string]any)
		if id, _ := m["id"].(string); id != "" {
			out = append(out, id)
		}
	}
	return out
}

// releaseOf returns the Helm release a HelmRelease manages, as storage
// namespace/release name, and the namespace it installs into, as the
// HelmRelease API derives them.
func releaseOf(hr Obj) (key, namespace string) {
	h := helmv2.HelmRelease{ObjectMeta: metav1.ObjectMeta{Name: str(hr, "metadata", "name"), Namespace: str(hr, "metadata", "namespace")}}
	h.Spec.ReleaseName = str(hr, "spec", "releaseName")
	h.Spec.TargetNamespace = str(hr, "spec", "targetNamespace")
	h.Spec.StorageNamespace = str(hr, "spec", "storageNamespace")
	return h.GetStorageNamespace() + "/" + h.GetReleaseName(), h.GetReleaseNamespace()
}

// gone reports whether the object of an inventory id is deleted.
func (r *clusterRun) gone(ctx context.Context, id string) (bool, error) {
	parts := strings.Split(id, "_")
	if len(parts) != 4 {
		return false, fmt.Errorf("inventory id %q", id)
	}
	ns, name, group, kind := parts[0], parts[1], parts[2], parts[3]
	apiVersion, err := r.preferredVersion(ctx, group)
	if err != nil {
		return false, err
	}
	_, err = r.c.Kube.Get(ctx, apiVersion, kind, ns, name)
	if IsNotFound(err) {
		return true, nil
	}
	return false, err
}

// preferredVersion is a group's preferred apiVersion, from discovery.
func (r *clusterRun) preferredVersion(ctx context.Context, group string) (string, error) {
	if group == "" {
		return "v1", nil
	}
	data, err := r.c.Kube.Raw(ctx, "/apis/"+group)
	if err != nil {
		return "", err
	}
	var g struct {
		PreferredVersion struct{ GroupVersion string }
	}
	if err := json.Unmarshal(data, &g); err != nil {
		return "", err
	}
	return g.PreferredVersion.GroupVersion, nil
}
