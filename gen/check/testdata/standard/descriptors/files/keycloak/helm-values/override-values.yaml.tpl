replicas: {{ .Service.Instances }}
adminPassword: {{ .Secrets.AdminPassword }}
