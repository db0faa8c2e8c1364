# The override Secrets the base HelmReleases istio-base, istiod and istio-gateway read
# (valuesFrom, key override.yaml), from opencenter.services.istio.
apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
namespace: {{ .Unit.Namespace }}
generatorOptions:
  disableNameSuffixHash: true
secretGenerator:
  - name: istio-base-values-override
    files:
      - override.yaml=helm-values/istio-base-values.yaml
  - name: istiod-values-override
    files:
      - override.yaml=helm-values/istiod-values.yaml
  {{- if .Service.IngressGateway }}
  - name: istio-gateway-values-override
    files:
      - override.yaml=helm-values/istio-gateway-values.yaml
  {{- end }}
