class BedrockConfig:
    # the keyword arguments are a local built up before it is returned (mem0)
    def __init__(self, region="us-west-2", profile=None):
        self.region = region
        self.profile = profile

    def get_aws_config(self):
        config = {"region_name": self.region}
        if self.profile:
            config["profile_name"] = self.profile
        return config
