//===- stark-llm.cpp - One chat request through stark's model client ------===//
//
// Sends one prompt the way agent=llm would (same options, wire formats,
// retries, budgets and transcripts) and prints the reply: the quickest
// check that a server is configured right before a search depends on it.
//
//   stark-llm --llm-url=http://127.0.0.1:8000 --llm-model=qwen "Say hi"
//
//===----------------------------------------------------------------------===//

#include "stark/LLM/HttpClient.h"
#include "stark/LLM/Transcript.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace mlir::stark::llm;

static cl::opt<std::string> prompt(cl::Positional, cl::desc("<prompt>"),
                                   cl::init(""));
static cl::opt<std::string>
    promptFile("prompt-file", cl::desc("Read the prompt from this file"));
static cl::opt<std::string> systemPrompt("system", cl::desc("System prompt"));
static cl::opt<std::string>
    provider("llm-provider", cl::desc("openai or anthropic (default: "
                                      "$STARK_LLM_PROVIDER, else openai)"));
static cl::opt<std::string> url("llm-url",
                                cl::desc("Server root (or $STARK_LLM_URL)"));
static cl::opt<std::string> model("llm-model",
                                  cl::desc("Model name (or $STARK_LLM_MODEL)"));
static cl::opt<std::string>
    keyEnv("llm-key-env", cl::desc("Name of the environment variable holding "
                                   "the API key (or $STARK_LLM_KEY_ENV)"));
static cl::opt<int64_t> maxTokens("llm-max-tokens", cl::init(4096),
                                  cl::desc("Largest reply, in tokens"));
static cl::opt<double> temperature("temperature", cl::init(0.0),
                                   cl::desc("Sampling temperature"));
static cl::opt<double> timeout("llm-timeout", cl::init(120),
                               cl::desc("Seconds for the whole request"));
static cl::opt<double>
    connectTimeout("llm-connect-timeout", cl::init(10),
                   cl::desc("Seconds to establish the connection"));
static cl::opt<unsigned> retries("llm-retries", cl::init(3),
                                 cl::desc("Retries on 429, 5xx and timeouts"));
static cl::opt<double> backoff("llm-backoff", cl::init(1.0),
                               cl::desc("First backoff, in seconds"));
static cl::opt<int64_t> requests("requests", cl::init(1),
                                 cl::desc("Send the prompt this many times "
                                          "(to exercise the budgets)"));
static cl::opt<int64_t> tokenBudget("llm-token-budget", cl::init(0),
                                    cl::desc("Tokens for the run (0: none)"));
static cl::opt<std::string>
    transcript("transcript", cl::desc("Record the exchanges (JSON Lines)"));

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  cl::ParseCommandLineOptions(argc, argv,
                              "stark-llm: one chat request through stark's "
                              "model client\n");
  auto fail = [](const Twine &message) {
    WithColor::error(errs(), "stark-llm") << message << "\n";
    return 1;
  };
  std::string text = prompt;
  if (!promptFile.empty()) {
    auto buffer = MemoryBuffer::getFile(promptFile);
    if (!buffer)
      return fail("cannot read '" + promptFile +
                  "': " + buffer.getError().message());
    text = (*buffer)->getBuffer().str();
  }
  if (text.empty())
    return fail("no prompt");

  ChatConfig config;
  config.baseUrl = url;
  config.model = model;
  config.apiKeyEnv = keyEnv;
  config.maxTokens = maxTokens;
  config.requestTimeout = timeout;
  config.connectTimeout = connectTimeout;
  config.retries = retries;
  config.backoff = backoff;
  config.tokenBudget = tokenBudget;
  std::string error;
  if (!resolveConfig(config, provider, error))
    return fail(error);

  HttpChatModel http(config);
  http.setRetryListener(
      [](const std::string &note) { errs() << "stark-llm: " << note << "\n"; });
  ChatModel *chat = &http;
  std::unique_ptr<RecordingChatModel> recorder;
  if (!transcript.empty()) {
    recorder = RecordingChatModel::create(http, config, transcript, error);
    if (!recorder)
      return fail(error);
    chat = recorder.get();
  }

  ChatRequest request;
  request.role = "user";
  request.system = systemPrompt;
  request.user = text;
  request.temperature = temperature;
  for (int64_t i = 0; i < requests; ++i) {
    ChatResult result = chat->complete(request);
    if (!result.ok())
      return fail(Twine(getErrorKindName(result.error)) + ": " +
                  result.message);
    outs() << result.reply.content << "\n";
    errs() << formatv("stark-llm: {0} prompt + {1} completion tokens, {2} "
                      "attempt(s), finish '{3}'\n",
                      result.reply.promptTokens, result.reply.completionTokens,
                      result.reply.attempts, result.reply.finishReason);
  }
  return 0;
}
