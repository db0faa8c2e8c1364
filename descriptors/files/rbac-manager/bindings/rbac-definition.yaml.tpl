# The cluster's group role bindings, from opencenter.services.rbac-manager.role_bindings:
# a ClusterRoleBinding per cluster-wide grant, a RoleBinding per listed namespace.
# Subjects have no apiGroup: the chart's CRD does not declare one, and the API
# server defaults a Group's in the bindings rbac-manager makes.
apiVersion: rbacmanager.reactiveops.io/v1beta1
kind: RBACDefinition
metadata:
  name: opencenter-role-bindings
rbacBindings:
  {{- range .Service.RoleBindings }}
  - name: {{ .Name }}
    subjects:
      - kind: Group
        name: {{ .Group }}
    {{- if .Namespaces }}
    roleBindings:
      {{- $role := .ClusterRole }}
      {{- range .Namespaces }}
      - clusterRole: {{ $role }}
        namespace: {{ . }}
      {{- end }}
    {{- else }}
    clusterRoleBindings:
      - clusterRole: {{ .ClusterRole }}
    {{- end }}
  {{- end }}
