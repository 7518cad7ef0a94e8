using System.Text.Json;
using OpenQA.Selenium;
using OpenQA.Selenium.Chrome;
using OpenQA.Selenium.Interactions;

namespace Dashboard.BrowserTests;

/// <summary>
/// Debian's headless Chromium through Debian's chromedriver. Both paths are given explicitly, so Selenium Manager never
/// looks for (or downloads) a browser or a driver. Missing binaries fail the tests with the install command.
/// </summary>
public sealed class Browser : IDisposable
{
    public static string ChromiumPath => Environment.GetEnvironmentVariable("CHROMIUM_PATH") ?? "/usr/bin/chromium";
    public static string DriverPath => Environment.GetEnvironmentVariable("CHROMEDRIVER_PATH") ?? "/usr/bin/chromedriver";

    private readonly string _profileDir = Directory.CreateTempSubdirectory("perf-chromium-").FullName;

    private Browser(string screenshots)
    {
        Screenshots = screenshots;
        var options = new ChromeOptions { BinaryLocation = ChromiumPath };
        options.AddArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync", "--window-size=1440,1000",
            "--force-device-scale-factor=1", $"--user-data-dir={_profileDir}");
        options.SetLoggingPreference(LogType.Browser, LogLevel.All);
        var service = ChromeDriverService.CreateDefaultService(Path.GetDirectoryName(DriverPath)!, Path.GetFileName(DriverPath));
        service.SuppressInitialDiagnosticInformation = true;
        service.HideCommandPromptWindow = true;
        Driver = new ChromeDriver(service, options, TimeSpan.FromSeconds(60));
    }

    public ChromeDriver Driver { get; }
    public string Screenshots { get; }

    public static Browser Start()
    {
        if (!File.Exists(ChromiumPath) || !File.Exists(DriverPath))
            throw new InvalidOperationException(
                $"The browser tests need Debian's Chromium and chromedriver ({ChromiumPath}, {DriverPath}): " +
                "run 'apt-get install -y chromium chromium-driver' (or set CHROMIUM_PATH and CHROMEDRIVER_PATH).");
        var dir = Environment.GetEnvironmentVariable("SCREENSHOT_DIR") ?? Path.Combine(AppContext.BaseDirectory, "TestResults", "screenshots");
        Directory.CreateDirectory(dir);
        return new Browser(dir);
    }

    public void Open(Uri url) => Driver.Navigate().GoToUrl(url);

    /// <summary>Waits until an element matches (and the condition holds): pages fill themselves in after fetches.</summary>
    public IWebElement WaitFor(string css, Func<IWebElement, bool>? condition = null, int seconds = 15)
    {
        IWebElement? found = null;
        Eventually.True(() =>
        {
            try
            {
                found = Driver.FindElements(By.CssSelector(css)).FirstOrDefault(e => condition is null || condition(e));
            }
            catch (StaleElementReferenceException)
            {
                // The page re-rendered between finding and checking: look again.
            }
            return found is not null;
        }, TimeSpan.FromSeconds(seconds));
        return found ?? throw new TimeoutException($"'{css}' did not appear on {Driver.Url}; page text: {Driver.FindElement(By.TagName("body")).Text}");
    }

    public void WaitUntil(Func<bool> condition, string what, int seconds = 15)
    {
        if (!Eventually.True(condition, TimeSpan.FromSeconds(seconds))) throw new TimeoutException($"{what} did not happen on {Driver.Url}");
    }

    /// <summary>Runs a script that returns JSON.stringify(...) and reads the result as T.</summary>
    public T Json<T>(string script, params object[] args) =>
        JsonSerializer.Deserialize<T>((string)Driver.ExecuteScript(script, args)!, new JsonSerializerOptions(JsonSerializerDefaults.Web))!;

    public object? Script(string script, params object[] args) => Driver.ExecuteScript(script, args);

    /// <summary>Clicks at a point of an element given in its own CSS pixels from the top-left corner.</summary>
    public void ClickAt(IWebElement element, double x, double y) =>
        new Actions(Driver).MoveToElement(element, (int)Math.Round(x - element.Size.Width / 2.0), (int)Math.Round(y - element.Size.Height / 2.0)).Click().Perform();

    public string Screenshot(string name)
    {
        var path = Path.Combine(Screenshots, name + ".png");
        Driver.GetScreenshot().SaveAsFile(path);
        return path;
    }

    /// <summary>Errors the page logged since the last call: script errors, failed fetches and CSP violations.</summary>
    public List<string> Errors() =>
        Driver.Manage().Logs.GetLog(LogType.Browser).Where(e => e.Level == LogLevel.Severe).Select(e => e.Message).ToList();

    private bool _disposed;

    public void Dispose()
    {
        if (_disposed) return;
        _disposed = true;
        Driver.Quit();
        Driver.Dispose();
        try { Directory.Delete(_profileDir, recursive: true); } catch (IOException) { }
    }
}
