// Namespaces nearly every integration test reads: the HTTP client, EF queries on the service's own context, tokens
// and scopes, the upload contract, and the test infrastructure.
global using System.Net;
global using System.Net.Http.Json;
global using Microsoft.EntityFrameworkCore;
global using PerfService.Auth;
global using PerfService.IntegrationTests.Infrastructure;
global using PerfService.Core.Contracts;
