using System.Reflection;
using Microsoft.Extensions.Options;

namespace PerfService.Hosting;

/// <summary>
/// Checks every validated setting before the request pipeline is built (its setup already reads some of them): a
/// wrong value ends the process with exit code 1 and one line per wrong value, naming its configuration section,
/// instead of an unhandled exception (an abort, exit 134, and a stack trace).
/// </summary>
public static class StartFailure
{
    public static bool SettingsAreValid(this WebApplication app)
    {
        try
        {
            // The same check the host runs at start for every options class registered with ValidateOnStart.
            app.Services.GetService<IStartupValidator>()?.Validate();
            return true;
        }
        catch (Exception e) when (Invalid(e).Any())
        {
            foreach (var invalid in Invalid(e))
            foreach (var failure in invalid.Failures)
                Console.Error.WriteLine(
                    $"error: a setting in section '{SectionOf(invalid.OptionsType)}' is not valid: {failure}"
                );
            Environment.ExitCode = 1;
            return false;
        }
    }

    // Several wrong options classes come as one AggregateException.
    private static IEnumerable<OptionsValidationException> Invalid(Exception e) =>
        e is AggregateException many ? many.InnerExceptions.OfType<OptionsValidationException>()
        : e is OptionsValidationException one ? [one]
        : [];

    // Options classes name their section in a `Section` constant; the class name stands in where one has none.
    private static string SectionOf(Type options) =>
        options.GetField("Section", BindingFlags.Public | BindingFlags.Static)?.GetValue(null) as string
        ?? options.Name;
}
