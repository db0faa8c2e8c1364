package main

// The examples each command's --help ends with.

// Help gives render's examples.
func (RenderCmd) Help() string {
	return `Examples:

    # Render every config at the root of the repository
    opencenter render

    # What would change, as a diff, and whether the tree is in sync (CI)
    opencenter render --diff
    opencenter render --check --require-keys

    # One cluster, one unit of it
    opencenter render .k8s-dev-config.yaml --only keycloak

    # Remove the overlays of clusters no config names any more
    opencenter render --prune

    # Take over the overlay openCenter-cli rendered, once its renamed Flux
    # Kustomizations are suspended (docs/user/migrating-from-opencenter-cli.md)
    opencenter render --adopt --diff
    opencenter render --adopt .os-dev-config.yaml

Exit status: 0 rendered or in sync, 1 differences (--check, --diff), 2 bad
input, 3 refused for safety (files not written by opencenter or edited by
hand, a link out of the repository), 4 the repository stayed locked.`
}

// Help gives validate's examples.
func (ValidateCmd) Help() string {
	return `Examples:

    opencenter validate
    opencenter validate .k8s-dev-config.yaml -o json

    # In CI that holds the age key: unchecked secrets are an error
    opencenter validate --require-keys

Exit status: 0 valid, 2 problems (all listed), 3 what render would refuse.`
}

// Help gives the secrets commands' examples.
func (SecretsCmd) Help() string {
	return `Whom the secrets are encrypted for comes from .sops.yaml, the nearest at or
above the config, never from the file's own sops: block.

Examples:

    # Set one credential (prompted without echo, or from standard input)
    opencenter secrets set services.harbor.admin_password
    openssl rand -hex 8 | opencenter secrets set services.harbor.secret_key

    # Edit every secret in $EDITOR; encrypt a config that has plaintext ones
    opencenter secrets edit .k8s-dev-config.yaml
    opencenter secrets encrypt .k8s-dev-config.yaml

    # After changing the recipients in .sops.yaml
    opencenter secrets updatekeys .k8s-dev-config.yaml`
}

// Help gives units' examples.
func (UnitsCmd) Help() string {
	return `Examples:

    opencenter units
    opencenter units --config .k8s-dev-config.yaml
    opencenter units -o json`
}

// Help gives explain's examples.
func (ExplainCmd) Help() string {
	return `Examples:

    opencenter explain
    opencenter explain services.keycloak
    opencenter explain secrets.services.harbor.admin_password`
}

// Help gives schema's example.
func (SchemaCmd) Help() string {
	return `Example:

    opencenter schema > .opencenter.schema.json`
}

// Help gives init's examples.
func (InitCmd) Help() string {
	return `Examples:

    # A config for cluster acme-prod-1, its secrets encrypted for your age key
    opencenter init --cluster acme-prod-1 --sops

    # For the team's keys, on OpenStack, in another repository
    opencenter init --cluster acme-prod-1 --provider openstack --sops \
        --age-recipient age1... --age-recipient age1... --repo ../gitops`
}

// Help gives enable's examples.
func (EnableCmd) Help() string {
	return `Examples:

    opencenter enable kyverno
    opencenter enable harbor --set hostname=harbor.dev.example.com
    opencenter enable keycloak --config .k8s-dev-config.yaml`
}

// Help gives disable's examples.
func (DisableCmd) Help() string {
	return `Examples:

    opencenter disable kyverno
    opencenter disable postgres-operator --with-dependents`
}

// Help gives version's example.
func (VersionCmd) Help() string {
	return `Example:

    opencenter version`
}

// Help gives opencenter's first steps.
func (CLI) Help() string {
	return `Examples:

    # A new cluster config, its secrets encrypted for your age key
    opencenter init --cluster acme-prod-1 --sops
    opencenter enable cert-manager
    opencenter render

    # Is the repository what its configs render? (CI)
    opencenter validate && opencenter render --check

See docs/user/ for the config, secrets and going live.`
}

// Help gives import's examples.
func (ImportCmd) Help() string {
	return `Examples:

    # One cluster of openCenter-cli, its secrets encrypted for .sops.yaml
    opencenter import ~/.config/opencenter/clusters/blueprints/acme/os-dev/os-dev-config.yaml

    # In a repository with no .sops.yaml yet: write its rule for the team's keys
    opencenter import --age-recipient age1... --age-recipient age1... os-dev-config.yaml

    # Several at once; without a .sops.yaml rule, secrets in plaintext
    opencenter import --allow-plaintext-secrets a-config.yaml b-config.yaml
    opencenter secrets encrypt .a-config.yaml

Writes nothing unless every file translates; never overwrites a file.
Exit status: 0 written, 2 bad input (all problems listed).`
}
