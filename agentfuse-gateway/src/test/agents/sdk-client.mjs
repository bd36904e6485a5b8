// One call through the gateway with an official SDK or framework at its default settings.
// Usage: node sdk-client.mjs <client> <model>   (env AGENTFUSE_BASE_URL: the gateway, http://127.0.0.1:PORT)
// Prints one line: "ok <text>" or "error <status> <message>", and exits 0 either way: the test
// reads the line and counts the requests the gateway received.
const [client, model, stream] = process.argv.slice(2);
const base = process.env.AGENTFUSE_BASE_URL;
const apiKey = 'sk-test-not-a-real-key';

async function call() {
  switch (client) {
    case 'openai': {
      const { default: OpenAI } = await import('openai');
      const openai = new OpenAI({ baseURL: base + '/v1', apiKey });
      const answer = await openai.chat.completions.create({ model, messages: [{ role: 'user', content: 'Hi' }] });
      return answer.choices[0].message.content;
    }
    case 'openai-responses': {
      const { default: OpenAI } = await import('openai');
      const openai = new OpenAI({ baseURL: base + '/v1', apiKey });
      const answer = await openai.responses.create({ model, input: 'Hi' });
      return answer.output_text;
    }
    case 'anthropic': {
      const { default: Anthropic } = await import('@anthropic-ai/sdk');
      const anthropic = new Anthropic({ baseURL: base, apiKey });
      const answer = await anthropic.messages.create({ model, max_tokens: 100, messages: [{ role: 'user', content: 'Hi' }] });
      return answer.content.map(block => block.text ?? '').join('');
    }
    case 'ai-sdk-openai':
    case 'ai-sdk-anthropic': {
      const { generateText } = await import('ai');
      const provider = client === 'ai-sdk-openai'
        ? (await import('@ai-sdk/openai')).createOpenAI({ baseURL: base + '/v1', apiKey }).chat(model)
        : (await import('@ai-sdk/anthropic')).createAnthropic({ baseURL: base + '/v1', apiKey })(model);
      const answer = await generateText({ model: provider, prompt: 'Hi' });
      return answer.text;
    }
    case 'openai-agents': {
      const { Agent, run, setDefaultOpenAIClient, setTracingDisabled } = await import('@openai/agents');
      const { default: OpenAI } = await import('openai');
      setTracingDisabled(true);
      setDefaultOpenAIClient(new OpenAI({ baseURL: base + '/v1', apiKey }));
      const result = await run(new Agent({ name: 'probe', instructions: 'Be brief.', model }), 'Hi');
      return result.finalOutput;
    }
    default:
      throw new Error('unknown client ' + client);
  }
}

try {
  const text = await call();
  console.log('ok ' + String(text).replace(/\s+/g, ' '));
} catch (error) {
  const status = error.status ?? error.statusCode ?? error.lastError?.statusCode ?? error.cause?.status ?? '-';
  console.log('error ' + status + ' ' + String(error.message).replace(/\s+/g, ' ').slice(0, 300));
}
