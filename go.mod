module github.com/opencenter-dev/opencenter

go 1.26.0

require (
	github.com/dave/jennifer v1.7.1
	go.yaml.in/yaml/v3 v3.0.4
	golang.org/x/tools v0.52.0
	sigs.k8s.io/yaml v1.6.0
)

require (
	github.com/alecthomas/kong v1.17.0 // indirect
	github.com/pmezard/go-difflib v1.0.0 // indirect
	github.com/sebdah/goldie/v2 v2.8.0 // indirect
	github.com/sergi/go-diff v1.0.0 // indirect
	go.yaml.in/yaml/v2 v2.4.2 // indirect
	golang.org/x/mod v0.42.0 // indirect
	golang.org/x/sync v0.24.0 // indirect
)
