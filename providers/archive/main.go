// The kit's stand-in for hashicorp/archive: the archive_file data source, with the schema
// and behaviour the Terraform Registry documents for the archive provider 2.x
// (https://registry.terraform.io/providers/hashicorp/archive/latest/docs/data-sources/file):
// a zip or tar.gz of one file, one directory, a string, or `source` blocks, written to
// `output_path` when read, with its size and digests. The deprecated archive_file
// resource is not served (a stack using it gets Terraform's "unsupported resource type").
//
// Written here because the Go module proxy serves no release of hashicorp/archive, so the
// provider cannot be built into the offline mirror the way hashicorp/random is.
package main

import (
	"context"
	"log"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/resource"
)

type archiveProvider struct{}

func (p *archiveProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "archive"
}

func (p *archiveProvider) Schema(_ context.Context, _ provider.SchemaRequest, _ *provider.SchemaResponse) {
}

func (p *archiveProvider) Configure(_ context.Context, _ provider.ConfigureRequest, _ *provider.ConfigureResponse) {
}

func (p *archiveProvider) Resources(_ context.Context) []func() resource.Resource {
	return nil
}

func (p *archiveProvider) DataSources(_ context.Context) []func() datasource.DataSource {
	return []func() datasource.DataSource{func() datasource.DataSource { return &fileDataSource{} }}
}

func main() {
	err := providerserver.Serve(context.Background(), func() provider.Provider { return &archiveProvider{} },
		providerserver.ServeOpts{Address: "registry.terraform.io/hashicorp/archive", ProtocolVersion: 5})
	if err != nil {
		log.Fatal(err)
	}
}
