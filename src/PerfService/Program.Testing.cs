// Makes the entry point visible to WebApplicationFactory<Program> in the integration tests.
public partial class Program;
